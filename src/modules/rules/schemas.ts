import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';
import { AGGREGATE_FUNCTIONS, GROUP_DIMENSIONS } from '../../engines/rules/index.js';
import { RuleSample, SampleResult } from './sample-test.js';

const lit = <T extends string>(xs: readonly T[], o: object = {}) =>
  Type.Union(
    xs.map((x) => Type.Literal(x)),
    o,
  );
const KEY = '^[a-z][a-z0-9_]{0,62}$';
export const RULE_STATUSES = ['draft', 'test', 'active', 'disabled'] as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const FORCED = ['review', 'block_and_review', 'decline'] as const;
const KEY_FIELDS = ['subject', 'counterparty', 'account', 'wallet', 'device', 'ip', 'type', 'channel', 'country', 'currency'] as const;
const DECIMAL_FIELDS = ['amount', 'counterparty_balance_after'] as const;
const FILTER_OPS = ['eq', 'ne', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte', 'between', 'multiple_of'] as const;

const Filter = Type.Object(
  {
    field: lit([...KEY_FIELDS, ...DECIMAL_FIELDS]),
    op: lit(FILTER_OPS),
    value: Type.Union(
      [
        Type.String({ minLength: 1, maxLength: 200 }),
        Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }),
        Type.Object({ tx: lit([...KEY_FIELDS, ...DECIMAL_FIELDS]) }, { additionalProperties: false }),
      ],
      {
        description:
          'A string (decimal string for amount fields), a list (in, not_in, between [low, high]), or {"tx": field}: the evaluated transaction\'s value.',
      },
    ),
  },
  { additionalProperties: false },
);

export const Aggregate = Type.Object(
  {
    key: Type.String({ pattern: KEY, description: 'Read in expressions as agg.<key>.' }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    fn: lit(AGGREGATE_FUNCTIONS),
    field: Type.Optional(
      lit([...KEY_FIELDS, ...DECIMAL_FIELDS], {
        description: 'Not for count (which counts rows); a key field for count_distinct; amount for the others.',
      }),
    ),
    window: Type.String({
      pattern: '^[1-9][0-9]{0,6}[mhd]$',
      description: '15m, 24h, 30d…: from 1 minute to 365 days. The evaluated transaction is always excluded.',
    }),
    group_by: Type.Union([lit(GROUP_DIMENSIONS), Type.Array(lit(GROUP_DIMENSIONS), { minItems: 1, maxItems: 3 })]),
    direction: Type.Optional(lit(['in', 'out', 'any'] as const)),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    filters: Type.Optional(Type.Array(Filter, { maxItems: 20 })),
  },
  { additionalProperties: false, title: 'Aggregate' },
);

export const Thresholds = Type.Object(
  {
    review: Type.Number({ minimum: 0, maximum: 1e6 }),
    block_and_review: Type.Number({ minimum: 0, maximum: 1e6 }),
    decline: Type.Number({ minimum: 0, maximum: 1e6 }),
  },
  { additionalProperties: false, description: 'On the summed score of active hits: review <= block_and_review <= decline.' },
);

export const Rule = Type.Object(
  {
    id: Type.String({ description: 'Stable across versions (rul_…).' }),
    object: Type.Literal('rule'),
    key: Type.String(),
    version: Type.Integer({ description: "The rule's own version: increases when a published rule set changes it." }),
    name: Type.String(),
    description: Type.String(),
    expression: Type.String({ description: 'CEL over tx, subject, counterparty, wallet, lists and agg (docs/transactions.md).' }),
    score: Type.Number(),
    severity: lit(SEVERITIES),
    force_outcome: Type.Union([lit(FORCED), Type.Null()]),
    tags: Type.Array(Type.String(), { description: 'Typology tags.' }),
    status: lit(RULE_STATUSES, {
      description: 'draft and disabled: not evaluated; test: evaluated in shadow (shadow_hit), never changes an outcome; active.',
    }),
    author: Type.String({ description: 'The principal who last changed the rule.' }),
    reviewer: Type.Union([Type.String(), Type.Null()], { description: 'The principal who published that change (maker-checker).' }),
  },
  { title: 'Rule' },
);
export type Rule = Static<typeof Rule>;

const VersionSummary = Type.Object({
  version: Type.Integer(),
  published_at: Timestamp,
  published_by: Type.String(),
  authors: Type.Array(Type.String()),
  change_note: Type.Union([Type.String(), Type.Null()]),
});

export const RuleSet = Type.Object(
  {
    object: Type.Literal('rule_set'),
    version: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The version shown (the current published one unless ?version=); null when none was published yet.',
    }),
    current_version: Type.Union([Type.Integer(), Type.Null()]),
    published_at: Type.Union([Timestamp, Type.Null()]),
    published_by: Type.Union([Type.String(), Type.Null()]),
    authors: Type.Array(Type.String()),
    change_note: Type.Union([Type.String(), Type.Null()]),
    thresholds: Thresholds,
    aggregates: Type.Array(Aggregate),
    rules: Type.Array(Rule),
    versions: Type.Array(VersionSummary, { description: 'Every published version, newest first.' }),
    draft: Type.Union(
      [
        Type.Object({
          revision: Type.Integer(),
          base_version: Type.Integer(),
          authors: Type.Array(Type.String()),
          updated_at: Type.Union([Timestamp, Type.Null()]),
        }),
        Type.Null(),
      ],
      { description: 'The pending draft (GET /v1/rules/draft for its content).' },
    ),
  },
  { title: 'RuleSet' },
);
export type RuleSet = Static<typeof RuleSet>;

export const RuleDraft = Type.Object(
  {
    object: Type.Literal('rule_set_draft'),
    revision: Type.Integer({
      description:
        'Increases on every edit; POST /v1/rules/publish names the revision it reviewed. 0: the starter library, not edited yet.',
    }),
    base_version: Type.Integer({ description: 'The published version the draft started from (0: none).' }),
    authors: Type.Array(Type.String(), { description: 'Principals who edited the draft: none of them may publish it.' }),
    updated_at: Type.Union([Timestamp, Type.Null()]),
    change_note: Type.Union([Type.String(), Type.Null()]),
    thresholds: Thresholds,
    aggregates: Type.Array(Aggregate),
    rules: Type.Array(Rule),
  },
  { title: 'RuleDraft' },
);
export type RuleDraft = Static<typeof RuleDraft>;

export const RulesQuery = Type.Object({
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'A published version (history).' })),
});

const ruleFields = {
  key: Type.String({ pattern: KEY }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 2000 }),
  expression: Type.String({ minLength: 1, maxLength: 4000 }),
  score: Type.Number({ minimum: 0, maximum: 1e6 }),
  severity: lit(SEVERITIES),
  force_outcome: Type.Union([lit(FORCED), Type.Null()]),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 }),
  status: lit(RULE_STATUSES),
};
export const CreateRule = Type.Object(
  {
    key: ruleFields.key,
    name: ruleFields.name,
    description: Type.Optional(ruleFields.description),
    expression: ruleFields.expression,
    score: ruleFields.score,
    severity: ruleFields.severity,
    force_outcome: Type.Optional(ruleFields.force_outcome),
    tags: Type.Optional(ruleFields.tags),
    status: Type.Optional(lit(RULE_STATUSES, { description: 'Default draft. Takes effect when the draft is published.' })),
  },
  { additionalProperties: false },
);
export type CreateRule = Static<typeof CreateRule>;

export const UpdateRule = Type.Partial(Type.Object(ruleFields, { additionalProperties: false }), {
  additionalProperties: false,
  minProperties: 1,
});
export type UpdateRule = Static<typeof UpdateRule>;

export const UpdateDraft = Type.Object(
  {
    thresholds: Type.Optional(Thresholds),
    aggregates: Type.Optional(Type.Array(Aggregate, { maxItems: 100, description: 'Replaces the declared aggregates.' })),
    change_note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateDraft = Static<typeof UpdateDraft>;

export const ValidateRules = Type.Object(
  {
    expression: Type.Optional(
      Type.String({ maxLength: 4000, description: "One expression, checked against the draft's aggregates (plus `aggregates` if given)." }),
    ),
    aggregates: Type.Optional(Type.Array(Aggregate, { maxItems: 100 })),
    sample: Type.Optional(RuleSample),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ValidateRules = Static<typeof ValidateRules>;

export const Diagnostic = Type.Object({
  field: Type.String(),
  code: Type.String(),
  message: Type.String(),
  position: Type.Union([
    Type.Object({ offset: Type.Integer(), end: Type.Integer(), line: Type.Integer(), column: Type.Integer() }),
    Type.Null(),
  ]),
});
export const ValidationResult = Type.Object(
  {
    object: Type.Literal('rule_validation'),
    valid: Type.Boolean(),
    errors: Type.Array(Diagnostic),
    reads: Type.Array(Type.String(), { description: 'The context paths the expression reads (tx.amount, agg.x…).' }),
    sample_result: Type.Optional(SampleResult),
  },
  { title: 'RuleValidation' },
);
export type ValidationResult = Static<typeof ValidationResult>;

export const PublishRules = Type.Object(
  {
    revision: Type.Integer({ minimum: 1, description: 'The draft revision the publisher reviewed: 409 when the draft changed since.' }),
    change_note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type PublishRules = Static<typeof PublishRules>;

export const DiffQuery = Type.Object({
  from: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  to: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Literal('draft')], {
      description: 'A version or draft (default: the current version).',
    }),
  ),
});
const Change = Type.Record(Type.String(), Type.Object({ before: Type.Unknown(), after: Type.Unknown() }));
export const RuleDiff = Type.Object(
  {
    object: Type.Literal('rule_set_diff'),
    from: Type.Integer(),
    to: Type.Union([Type.Integer(), Type.Literal('draft')]),
    thresholds: Type.Union([Change, Type.Null()]),
    rules: Type.Object({
      added: Type.Array(Type.Object({ id: Type.String(), key: Type.String() })),
      removed: Type.Array(Type.Object({ id: Type.String(), key: Type.String() })),
      changed: Type.Array(Type.Object({ id: Type.String(), key: Type.String(), fields: Change })),
    }),
    aggregates: Type.Object({ added: Type.Array(Type.String()), removed: Type.Array(Type.String()), changed: Type.Array(Type.String()) }),
  },
  { title: 'RuleSetDiff' },
);
export type RuleDiff = Static<typeof RuleDiff>;

export const CreateSnooze = Type.Object(
  {
    subject_reference: Type.String({ minLength: 1, maxLength: 200 }),
    until: Type.String({ format: 'date-time', description: 'In the future, at most 365 days ahead.' }),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type CreateSnooze = Static<typeof CreateSnooze>;
export const Snooze = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('rule_snooze'),
    rule_id: Type.String(),
    subject_reference: Type.String(),
    until: Timestamp,
    reason: Type.String(),
    created_by: Type.String(),
    created_at: Timestamp,
  },
  { title: 'RuleSnooze' },
);
export type Snooze = Static<typeof Snooze>;
