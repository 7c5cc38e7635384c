import { Environment } from '@marcbachmann/cel-js';
import type { ValidationError } from './aggregates.js';
import { type CompiledExpression, compileExpression, runExpression } from './compile.js';
import type { RuleEnvironment } from './context.js';

/**
 * Journey rules: the same CEL compiler and runner as transaction rules, over the context a
 * verification's decision has: `checks.<type>` (the check's final status, '' when the journey has no
 * such check), `results.<type>` (status, score, reasons of that check), `risk` (score and band from the
 * journey's scoring), `subject` (type, reference, country as the session was created), `document` (the
 * fields the document check read: type, issuing country, nationality, age and expiry at decision time),
 * `declared` (what the session was created with) and `capture` (where the subject captured from).
 * Birth dates and names never enter the context (only age and whether they were given), so the decision
 * trail that reports the values a rule used holds no raw identity data. One environment per list of check
 * types, built once.
 */
export interface JourneyRule {
  key: string;
  expression: string;
  outcome: 'refer' | 'decline';
  description?: string;
}

type Text = string | null | undefined;

export interface JourneyRuleInput {
  checks: Record<string, string>;
  risk: { score: number; band: string };
  subject: { type?: Text; reference?: Text; country?: Text };
  /** Each check's outcome beyond its status (score null when the check gives none). */
  results?: Record<string, { status: string; score?: number | null; reasons?: readonly string[] }>;
  /** The document check's fields (null: no document was read). Dates YYYY-MM-DD. */
  document?: {
    document_type?: Text;
    issuing_country?: Text;
    nationality?: Text;
    date_of_birth?: Text;
    expiry_date?: Text;
  } | null;
  /** The subject data the session was created with. */
  declared?: { given_names?: Text; surname?: Text; date_of_birth?: Text; country?: Text } | null;
  capture?: { ip_country?: Text } | null;
  /** Decision time (ms since epoch): ages and expiry are computed at it. */
  now?: number;
}

/** The values a rule read (context path → value, as the rule saw it). */
export type ValuesUsed = Record<string, unknown>;

export type JourneyRuleResult =
  | { key: string; outcome: 'refer' | 'decline'; matched: boolean; values_used: ValuesUsed }
  | { key: string; outcome: 'refer' | 'decline'; error: { code: string; message: string }; values_used: ValuesUsed };

/** The typed context beyond `checks` (whose fields are the journey's check types). */
const JOURNEY_TYPES: Record<string, Record<string, string>> = {
  JourneyCheckResult: { status: 'string', score: 'double', scored: 'bool', reasons: 'list<string>' },
  JourneyRisk: { score: 'int', band: 'string' },
  JourneySubject: { type: 'string', reference: 'string', country: 'string' },
  JourneyDocument: {
    read: 'bool',
    type: 'string',
    issuing_country: 'string',
    nationality: 'string',
    age: 'int',
    age_known: 'bool',
    expiry_date: 'string',
    days_to_expiry: 'int',
    expired: 'bool',
  },
  JourneyDeclared: { name_given: 'bool', birth_date_given: 'bool', age: 'int', country: 'string' },
  JourneyCapture: { ip_country: 'string' },
};

const environments = new Map<string, RuleEnvironment>();

export function journeyEnvironment(checkTypes: readonly string[]): RuleEnvironment {
  const k = checkTypes.join(',');
  const hit = environments.get(k);
  if (hit) return hit;
  const env = new Environment({ limits: { maxAstNodes: 2000, maxDepth: 64 } });
  const classes: RuleEnvironment['classes'] = {};
  const register = (name: string, fields: Record<string, string>) => {
    classes[name] = {
      [name]: class {
        constructor(o: Record<string, unknown>) {
          Object.assign(this, o);
        }
      },
    }[name]!;
    env.registerType(name, { ctor: classes[name], fields });
  };
  for (const [name, fields] of Object.entries(JOURNEY_TYPES)) register(name, fields);
  register('JourneyChecks', Object.fromEntries(checkTypes.map((t) => [t, 'string'])));
  register('JourneyResults', Object.fromEntries(checkTypes.map((t) => [t, 'JourneyCheckResult'])));
  const roots = { checks: 'JourneyChecks', results: 'JourneyResults', risk: 'JourneyRisk', subject: 'JourneySubject' };
  const more = { document: 'JourneyDocument', declared: 'JourneyDeclared', capture: 'JourneyCapture' };
  for (const [v, type] of Object.entries({ ...roots, ...more })) env.registerVariable(v, type);
  const re: RuleEnvironment = { env, classes, aggregates: [], roots: new Set([...Object.keys(roots), ...Object.keys(more)]) };
  environments.set(k, re);
  return re;
}

/** Compiles each rule's expression; errors name `<base>[i].expression` with the position. */
export function compileJourneyRules(
  checkTypes: readonly string[],
  rules: readonly JourneyRule[],
  base = 'rules',
): { ok: true; expressions: CompiledExpression[] } | { ok: false; errors: ValidationError[] } {
  const re = journeyEnvironment(checkTypes);
  const expressions: CompiledExpression[] = [];
  const errors: ValidationError[] = [];
  rules.forEach((r, i) => {
    const c = compileExpression(re, r.expression, `${base}[${i}].expression`);
    if (c.ok) expressions.push(c.expression);
    else errors.push(...c.errors);
  });
  return errors.length ? { ok: false, errors } : { ok: true, expressions };
}

const DAY_MS = 86_400_000;

/** Whole years from a YYYY-MM-DD date to `now` (UTC), or null for a missing or malformed date. */
export function ageAt(date: Text, now: number): number | null {
  const m = date ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!Number.isFinite(Date.UTC(y, mo - 1, d))) return null;
  const n = new Date(now);
  const before = n.getUTCMonth() + 1 < mo || (n.getUTCMonth() + 1 === mo && n.getUTCDate() < d);
  return n.getUTCFullYear() - y - (before ? 1 : 0);
}

/**
 * The plain context (defaults filled: '' for unknown text, 0 and false for unknown numbers and flags,
 * with `*_known` / `read` / `*_given` flags to tell an unknown from a zero). What values_used reports.
 */
export function journeyContext(checkTypes: readonly string[], input: JourneyRuleInput): Record<string, Record<string, unknown>> {
  const now = input.now ?? Date.now();
  const text = (v: Text) => v ?? '';
  const doc = input.document ?? null;
  const docAge = ageAt(doc?.date_of_birth, now);
  const expiry = doc?.expiry_date && /^\d{4}-\d{2}-\d{2}$/.test(doc.expiry_date) ? Date.parse(`${doc.expiry_date}T00:00:00Z`) : NaN;
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  // A document is valid through its expiry day: expired from the day after.
  const daysToExpiry = Number.isFinite(expiry) ? Math.round((expiry - today) / DAY_MS) : 0;
  const declared = input.declared ?? {};
  const declaredAge = ageAt(declared.date_of_birth, now);
  return {
    checks: Object.fromEntries(checkTypes.map((t) => [t, input.checks[t] ?? ''])),
    results: Object.fromEntries(
      checkTypes.map((t) => {
        const r = input.results?.[t];
        const scored = typeof r?.score === 'number' && Number.isFinite(r.score);
        return [t, { status: r?.status ?? input.checks[t] ?? '', score: scored ? r!.score! : 0, scored, reasons: [...(r?.reasons ?? [])] }];
      }),
    ),
    risk: { score: Math.trunc(input.risk.score), band: input.risk.band },
    subject: { type: text(input.subject.type), reference: text(input.subject.reference), country: text(input.subject.country) },
    document: {
      read: doc !== null,
      type: text(doc?.document_type),
      issuing_country: text(doc?.issuing_country),
      nationality: text(doc?.nationality),
      age: docAge ?? 0,
      age_known: docAge !== null,
      expiry_date: Number.isFinite(expiry) ? doc!.expiry_date! : '',
      days_to_expiry: daysToExpiry,
      expired: Number.isFinite(expiry) && daysToExpiry < 0,
    },
    declared: {
      name_given: !!(declared.given_names || declared.surname),
      birth_date_given: declaredAge !== null,
      age: declaredAge ?? 0,
      country: text(declared.country ?? input.subject.country),
    },
    // No IP→country data ships offline and the capture's address is not kept: always '' (unknown) for now.
    capture: { ip_country: text(input.capture?.ip_country) },
  };
}

function valueAt(o: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = o;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

/** Evaluates compiled journey rules in order over one context; a rule that throws is an error, never a miss. */
export function evaluateJourneyRules(
  checkTypes: readonly string[],
  rules: readonly JourneyRule[],
  expressions: readonly CompiledExpression[],
  input: JourneyRuleInput,
): JourneyRuleResult[] {
  const re = journeyEnvironment(checkTypes);
  const c = re.classes;
  const plain = journeyContext(checkTypes, input);
  const ints = new Set(['score', 'age', 'days_to_expiry']);
  const record = (type: string, o: Record<string, unknown>, intFields: boolean) =>
    new c[type]!(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, intFields && ints.has(k) ? BigInt(v as number) : v])));
  const cel = {
    checks: record('JourneyChecks', plain.checks!, false),
    results: new c.JourneyResults!(
      Object.fromEntries(
        Object.entries(plain.results!).map(([k, v]) => [k, record('JourneyCheckResult', v as Record<string, unknown>, false)]),
      ),
    ),
    risk: record('JourneyRisk', plain.risk!, true),
    subject: record('JourneySubject', plain.subject!, false),
    document: record('JourneyDocument', plain.document!, true),
    declared: record('JourneyDeclared', plain.declared!, true),
    capture: record('JourneyCapture', plain.capture!, false),
  };
  return rules.map((r, i) => {
    const e = expressions[i]!;
    const values_used: ValuesUsed = {};
    e.paths.forEach((p, j) => (values_used[p] = valueAt(plain, e.segments[j]!)));
    const run = runExpression(e, cel);
    return run.ok
      ? { key: r.key, outcome: r.outcome, matched: run.value, values_used }
      : { key: r.key, outcome: r.outcome, error: run.error, values_used };
  });
}
