import { type AggregateDecl, type ValidationError, validateAggregate } from './aggregates.js';
import { type AggregatePlan, planAggregate } from './aggregate-plan.js';
import { type CompiledExpression, compileExpression } from './compile.js';
import { type RuleEnvironment, buildEnvironment } from './context.js';

export const RULE_STATUSES = ['draft', 'test', 'active', 'disabled'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const DECISIONS = ['approved', 'review', 'block_and_review', 'declined'] as const;
export type Decision = (typeof DECISIONS)[number];
export type ForcedOutcome = 'review' | 'block_and_review' | 'decline';

export interface Rule {
  /** Stable across versions of the rule. */
  id: string;
  key: string;
  version: number;
  name: string;
  description: string;
  expression: string;
  score: number;
  severity: Severity;
  force_outcome?: ForcedOutcome;
  typologies: string[];
  status: RuleStatus;
  author: string;
  reviewed_by?: string;
}

export interface Thresholds {
  review: number;
  block_and_review: number;
  decline: number;
}

export interface RuleSet {
  version: number;
  thresholds: Thresholds;
  rules: Rule[];
  aggregates: AggregateDecl[];
  change_note?: string;
}

export interface CompiledRule {
  rule: Rule;
  expression: CompiledExpression;
}

export interface CompiledRuleSet {
  ruleset: RuleSet;
  environment: RuleEnvironment;
  /** Rules that take part in evaluation (active and test); drafts and disabled rules are left out. */
  rules: CompiledRule[];
  aggregates: AggregatePlan[];
}

export type RuleSetResult = { ok: true; compiled: CompiledRuleSet } | { ok: false; errors: ValidationError[] };

const KEY_RE = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * Validates a whole rule set and compiles it once. Every expression is compiled, including drafts, so a
 * broken draft is reported before anyone enables it. All errors are returned, each naming its field.
 */
export function compileRuleSet(rs: RuleSet): RuleSetResult {
  const errors: ValidationError[] = [];
  const e = (field: string, code: string, message: string) => errors.push({ field, code, message });
  const t = rs.thresholds;
  if (!t || ![t.review, t.block_and_review, t.decline].every(Number.isFinite)) {
    e('thresholds', 'invalid_thresholds', 'review, block_and_review and decline must be numbers');
  } else if (!(t.review <= t.block_and_review && t.block_and_review <= t.decline)) {
    e('thresholds', 'thresholds_not_ordered', 'thresholds must satisfy review <= block_and_review <= decline');
  }
  const aggKeys = new Set<string>();
  (rs.aggregates ?? []).forEach((a, i) => {
    errors.push(...validateAggregate(a, `aggregates[${i}]`));
    if (aggKeys.has(a.key)) e(`aggregates[${i}].key`, 'duplicate_key', `aggregate key '${a.key}' is declared twice`);
    aggKeys.add(a.key);
  });
  const aggregatesOk = errors.length === 0 || errors.every((x) => !x.field.startsWith('aggregates'));
  const environment = buildEnvironment(aggregatesOk ? rs.aggregates : rs.aggregates.filter((a) => KEY_RE.test(String(a.key))));
  const keys = new Set<string>();
  const ids = new Set<string>();
  const rules: CompiledRule[] = [];
  rs.rules.forEach((r, i) => {
    const at = `rules[${i}]`;
    if (!KEY_RE.test(String(r.key))) e(`${at}.key`, 'invalid_key', 'key must match ^[a-z][a-z0-9_]{0,62}$');
    if (keys.has(r.key)) e(`${at}.key`, 'duplicate_key', `rule key '${r.key}' is used twice`);
    if (ids.has(r.id)) e(`${at}.id`, 'duplicate_id', `rule id '${r.id}' is used twice`);
    keys.add(r.key);
    ids.add(r.id);
    if (!r.id) e(`${at}.id`, 'required', 'id is required');
    if (!Number.isFinite(r.score)) e(`${at}.score`, 'invalid_score', 'score must be a number');
    if (!(RULE_STATUSES as readonly string[]).includes(r.status))
      e(`${at}.status`, 'invalid_status', `status must be one of ${RULE_STATUSES.join(', ')}`);
    if (!(SEVERITIES as readonly string[]).includes(r.severity))
      e(`${at}.severity`, 'invalid_severity', `severity must be one of ${SEVERITIES.join(', ')}`);
    if (r.force_outcome !== undefined && !['review', 'block_and_review', 'decline'].includes(r.force_outcome)) {
      e(`${at}.force_outcome`, 'invalid_force_outcome', 'force_outcome must be review, block_and_review or decline');
    }
    if (r.status === 'active' && r.reviewed_by !== undefined && r.reviewed_by === r.author) {
      e(`${at}.reviewed_by`, 'self_review', 'the reviewer of an active rule must not be its author');
    }
    const c = compileExpression(environment, r.expression, `${at}.expression`);
    if (!c.ok) errors.push(...c.errors);
    else if (r.status === 'active' || r.status === 'test') rules.push({ rule: r, expression: c.expression });
  });
  if (errors.length) return { ok: false, errors };
  return { ok: true, compiled: { ruleset: rs, environment, rules, aggregates: rs.aggregates.map(planAggregate) } };
}

/** Only the aggregates that evaluated rules read, so the module computes no more history than needed. */
export function requiredAggregates(c: CompiledRuleSet): AggregateDecl[] {
  const used = new Set(c.rules.flatMap((r) => r.expression.aggregates));
  return c.ruleset.aggregates.filter((a) => used.has(a.key));
}

/**
 * The context paths (outside `agg`) that evaluated rules read, e.g. "subject.kyc_decision",
 * "counterparty.screening.status", "wallet": the module loads only the parts of the context asked for.
 * A bare root ("wallet") means the whole object.
 */
export function requiredContext(c: CompiledRuleSet): readonly string[] {
  let paths = REQUIRED_CONTEXT.get(c);
  if (paths === undefined) {
    paths = Object.freeze(
      [...new Set(c.rules.flatMap((r) => r.expression.paths.filter((p) => p !== 'agg' && !p.startsWith('agg.'))))].sort(),
    );
    REQUIRED_CONTEXT.set(c, paths);
  }
  return paths;
}
/** requiredContext per compiled version (asked at every transaction; a compiled version never changes). */
const REQUIRED_CONTEXT = new WeakMap<CompiledRuleSet, readonly string[]>();

/** Whether a rule reading `paths` needs `field` (the field itself, a part of it, or the whole of an ancestor). */
export function readsPath(paths: readonly string[], field: string): boolean {
  return paths.some((p) => p === field || p.startsWith(`${field}.`) || field.startsWith(`${p}.`));
}

/** Validation only (what POST /v1/rules/validate needs): the errors, empty when the rule set compiles. */
export function validateRuleSet(rs: RuleSet): ValidationError[] {
  const r = compileRuleSet(rs);
  return r.ok ? [] : r.errors;
}
