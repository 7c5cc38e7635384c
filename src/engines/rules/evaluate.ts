import { type RootVariable, type RuleContextInput, celContextOf, normalizeContext, toCelContext } from './context.js';
import { runExpression, type RunResult } from './compile.js';
import type { CompiledRuleSet, Decision, ForcedOutcome, Thresholds } from './ruleset.js';

export type RuleOutcomeKind = 'hit' | 'no_hit' | 'shadow_hit' | 'snoozed' | 'error';

export interface RuleOutcome {
  rule_id: string;
  key: string;
  version: number;
  outcome: RuleOutcomeKind;
  /** The rule's score when it counted (hit), else 0. */
  score: number;
  values_used: Record<string, unknown>;
  /** For snoozed rules: whether it would have hit. */
  would_hit?: boolean;
  forced_outcome?: ForcedOutcome;
  error?: { code: string; message: string };
}

export interface Evaluation {
  status: Decision;
  score: number;
  ruleset_version: number;
  outcomes: RuleOutcome[];
}

export interface EvaluateOptions {
  /** Stable rule ids snoozed for this transaction's pivot (subject, account…). */
  snoozed?: ReadonlySet<string>;
  /** false: outcomes carry no values_used (replays count outcomes only; building them is a third of evaluate). */
  valuesUsed?: boolean;
  /**
   * Ids of rules already decided false by a guard (neededAggregates): recorded as not hit without running, and
   * their aggregates may be absent (left out of values_used, not an error).
   */
  decided?: ReadonlySet<string>;
}

const NO_VALUES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
const DECIDED: RunResult = { ok: true, value: false };

const RANK: Record<Decision, number> = { approved: 0, review: 1, block_and_review: 2, declined: 3 };
const FORCED: Record<ForcedOutcome, Decision> = { review: 'review', block_and_review: 'block_and_review', decline: 'declined' };

export function decide(score: number, t: Thresholds): Decision {
  if (score >= t.decline) return 'declined';
  if (score >= t.block_and_review) return 'block_and_review';
  if (score >= t.review) return 'review';
  return 'approved';
}

function valueAt(n: Record<RootVariable, Record<string, unknown>>, path: string[]): unknown {
  let v: unknown = n;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

/**
 * Evaluates every active and test rule. Score = sum of active hits; status = the highest of the threshold
 * outcome and the forced outcomes of active hits. Test rules give shadow_hit and never count. A rule that
 * throws gives `error` and never blocks. A snoozed rule is still evaluated (for would_hit) but never counts.
 */
export function evaluate(c: CompiledRuleSet, input: RuleContextInput, opts: EvaluateOptions = {}): Evaluation {
  const withValues = opts.valuesUsed !== false;
  const normalized = withValues ? normalizeContext(input, c.ruleset.aggregates) : null;
  const cel = normalized ? toCelContext(c.environment, normalized) : celContextOf(c.environment, input);
  let score = 0;
  let forced: Decision = 'approved';
  const outcomes: RuleOutcome[] = [];
  // Outcomes are object literals in one key order (rule_id, key, version, values_used, outcome, score, …):
  // the order responses are serialised in, without a spread per rule.
  for (const { rule, expression } of c.rules) {
    const isDecided = opts.decided?.has(rule.id) === true;
    let values_used = NO_VALUES;
    if (normalized) {
      values_used = {};
      for (let i = 0; i < expression.paths.length; i++) {
        const seg = expression.segments[i]!;
        // A decided rule's aggregates that were not computed are not values it used.
        if (isDecided && seg[0] === 'agg' && input.agg?.[seg[1]!] === undefined) continue;
        values_used[expression.paths[i]!] = valueAt(normalized, seg);
      }
      for (let i = 0; i < expression.evidence.length; i++)
        values_used[expression.evidence[i]!] = valueAt(normalized, expression.evidenceSegments[i]!);
    }
    const { id: rule_id, key, version } = rule;
    // A count the caller forgot to compute must not read as 0 (a "no activity" rule would fire); a decided rule's
    // aggregates are left out on purpose.
    let missing: string | undefined;
    if (!isDecided)
      for (const k of expression.aggregates)
        if (input.agg?.[k] === undefined) {
          missing = k;
          break;
        }
    if (missing !== undefined) {
      outcomes.push({
        rule_id,
        key,
        version,
        values_used,
        outcome: 'error',
        score: 0,
        error: { code: 'aggregate_missing', message: `agg.${missing} was not provided` },
      });
      continue;
    }
    // A decided rule is false whatever its aggregates are (a conjunct on the rest of the context is false): not run.
    const run = isDecided ? DECIDED : runExpression(expression, cel);
    if (!run.ok) {
      outcomes.push({ rule_id, key, version, values_used, outcome: 'error', score: 0, error: run.error });
      continue;
    }
    const hit = run.value;
    if (opts.snoozed?.has(rule.id)) {
      outcomes.push({ rule_id, key, version, values_used, outcome: 'snoozed', score: 0, would_hit: hit });
    } else if (rule.status === 'test') {
      outcomes.push({ rule_id, key, version, values_used, outcome: hit ? 'shadow_hit' : 'no_hit', score: 0 });
    } else if (hit) {
      score += rule.score;
      const o: RuleOutcome = { rule_id, key, version, values_used, outcome: 'hit', score: rule.score };
      if (rule.force_outcome) {
        o.forced_outcome = rule.force_outcome;
        const d = FORCED[rule.force_outcome];
        if (RANK[d] > RANK[forced]) forced = d;
      }
      outcomes.push(o);
    } else {
      outcomes.push({ rule_id, key, version, values_used, outcome: 'no_hit', score: 0 });
    }
  }
  const byScore = decide(score, c.ruleset.thresholds);
  return { status: RANK[forced] > RANK[byScore] ? forced : byScore, score, ruleset_version: c.ruleset.version, outcomes };
}
