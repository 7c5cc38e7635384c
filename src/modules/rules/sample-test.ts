import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CONTEXT_TYPES,
  DecimalError,
  compileRuleSet,
  parseDecimal,
  evaluate,
  type RuleContextInput,
  type RuleSet,
  type RuleOutcome,
} from '../../engines/rules/index.js';
import { invalid } from '../../platform/errors.js';

/**
 * "Test against a sample transaction" (POST /v1/rules/validate with `sample`): the draft's rules, and
 * the expression being edited, evaluated over one rule context the analyst writes. The sample's schema
 * is made from the engine's context types, so a field of the wrong type is a 400 naming it, and a field
 * left out takes the default every rule sees for an unknown value.
 */
const MONEY = '^-?(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$';
/** Fields the engine derives from the others (occurred_at, amount): not given in a sample. */
const DERIVED = new Set(['hour', 'weekday', 'amount_decimal', 'balance_known']);

function fieldSchema(t: (typeof CONTEXT_TYPES)[string][string]): TSchema {
  if (typeof t === 'object') return objectSchema(t.type);
  switch (t) {
    case 'string':
      return Type.String({ maxLength: 500 });
    case 'int':
      return Type.Integer({ minimum: -1e12, maximum: 1e12 });
    case 'double':
      return Type.Number({ minimum: -1e12, maximum: 1e12 });
    case 'bool':
      return Type.Boolean();
    case 'money':
      return Type.String({ pattern: MONEY, maxLength: 50, description: 'Decimal string.' });
    case 'list<string>':
      return Type.Array(Type.String({ maxLength: 500 }), { maxItems: 100 });
    default:
      return Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 500 }), { maxProperties: 50 });
  }
}

function objectSchema(type: string, skip: ReadonlySet<string> = new Set()): ReturnType<typeof Type.Object> {
  const props: Record<string, TSchema> = {};
  for (const [k, t] of Object.entries(CONTEXT_TYPES[type]!)) if (!skip.has(k)) props[k] = Type.Optional(fieldSchema(t));
  return Type.Object(props, { additionalProperties: false });
}

const txFields = objectSchema('Tx', new Set([...DERIVED, 'occurred_at', 'amount', 'currency']));
export const RuleSample = Type.Object(
  {
    tx: Type.Object(
      {
        ...txFields.properties,
        amount: Type.String({ pattern: '^(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$', maxLength: 49, description: 'Decimal string.' }),
        currency: Type.String({ pattern: '^[A-Z]{3}$' }),
        occurred_at: Type.String({ format: 'date-time' }),
      },
      { additionalProperties: false },
    ),
    subject: Type.Optional(objectSchema('Subject')),
    counterparty: Type.Optional(objectSchema('Counterparty')),
    wallet: Type.Optional(objectSchema('Wallet')),
    lists: Type.Optional(objectSchema('Lists')),
    agg: Type.Optional(
      Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]{0,62}$' }), Type.Union([Type.Integer(), Type.String({ pattern: MONEY })]), {
        maxProperties: 100,
        description:
          "Values of the draft's aggregates (counts as integers, amounts as decimal strings); a rule reading one not given errors.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'A rule context (the fields rules read as tx.*, subject.*, counterparty.*, wallet.*, lists.*, agg.*); fields left out take their defaults.',
  },
);
export type RuleSample = Static<typeof RuleSample>;

const Outcome = Type.Object({
  rule_id: Type.String(),
  key: Type.String(),
  status: Type.String({ description: "The rule's status in the draft: active, or test (shadow: a hit is shadow_hit and never counts)." }),
  outcome: Type.String({ description: 'hit, no_hit, shadow_hit or error.' }),
  score: Type.Number(),
  values_used: Type.Record(Type.String(), Type.Unknown()),
  error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
});
export const SampleResult = Type.Object(
  {
    status: Type.String({ description: 'What the draft would decide: approved, review, block_and_review, declined.' }),
    score: Type.Number(),
    outcomes: Type.Array(Outcome, { description: 'Every active and test rule of the draft.' }),
    expression: Type.Union([Type.Omit(Outcome, ['rule_id', 'key', 'status', 'score']), Type.Null()], {
      description: 'The expression of the request over the sample (null when none was given or it does not compile).',
    }),
  },
  { description: 'Present when the request carries a sample.' },
);
export type SampleResult = Static<typeof SampleResult>;

const view = (o: RuleOutcome, status: string) => ({
  rule_id: o.rule_id,
  key: o.key,
  status,
  outcome: o.outcome,
  score: o.score,
  values_used: o.values_used,
  error: o.error ?? null,
});

/**
 * The first money value of a sample that the engine cannot hold (the schema's pattern allows 30 integer and 18
 * fraction digits; a decimal holds 30 digits in all), as the 400 naming its field: `sample.tx.amount`.
 */
function checkMoney(sample: RuleSample): void {
  const check = (field: string, v: unknown) => {
    if (typeof v !== 'string') return;
    try {
      parseDecimal(v);
    } catch (e) {
      if (e instanceof DecimalError) throw invalid(field, `${field}: ${e.message}.`);
      throw e;
    }
  };
  const walk = (type: string, o: unknown, path: string) => {
    if (!o || typeof o !== 'object') return;
    for (const [k, t] of Object.entries(CONTEXT_TYPES[type] ?? {})) {
      const v = (o as Record<string, unknown>)[k];
      if (typeof t === 'object') walk(t.type, v, `${path}.${k}`);
      else if (t === 'money') check(`${path}.${k}`, v);
    }
  };
  for (const [root, type] of [
    ['tx', 'Tx'],
    ['subject', 'Subject'],
    ['counterparty', 'Counterparty'],
    ['wallet', 'Wallet'],
    ['lists', 'Lists'],
  ] as const)
    walk(type, sample[root], `sample.${root}`);
  for (const [k, v] of Object.entries(sample.agg ?? {})) check(`sample.agg.${k}`, v);
}

/** Evaluates a rule set's active and test rules, and optionally one more expression, over a sample. */
export function testSample(doc: RuleSet, sample: RuleSample, expression?: string): SampleResult {
  checkMoney(sample);
  const input = sample as unknown as RuleContextInput;
  const compiled = compileRuleSet(doc);
  if (!compiled.ok) throw new Error('the stored draft does not compile'); // drafts are compiled on every save
  const ev = evaluate(compiled.compiled, input);
  const statusOf = new Map(doc.rules.map((r) => [r.id, r.status]));
  let single: SampleResult['expression'] = null;
  if (expression !== undefined) {
    const probe = compileRuleSet({
      ...doc,
      rules: [
        {
          id: 'expression',
          key: 'expression',
          version: 1,
          name: 'expression',
          description: '',
          expression,
          score: 0,
          severity: 'low',
          typologies: [],
          status: 'active',
          author: 'validate',
        },
      ],
    });
    if (probe.ok) {
      const o = evaluate(probe.compiled, input).outcomes[0]!;
      single = { outcome: o.outcome, values_used: o.values_used, error: o.error ?? null };
    }
  }
  return {
    status: ev.status,
    score: ev.score,
    outcomes: ev.outcomes.map((o) => view(o, statusOf.get(o.rule_id) ?? 'active')),
    expression: single,
  };
}
