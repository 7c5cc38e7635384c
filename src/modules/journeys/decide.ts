import { JOURNEY_CHECK_TYPES, statusesOf, type JourneyCheckType } from '../checks/index.js';
import type { OutcomeStatus } from '../checks/index.js';
import type { JourneyDefinition } from './definition.js';
import {
  compileJourneyRules,
  evaluateJourneyRules,
  type CompiledExpression,
  type JourneyRule,
  type JourneyRuleInput,
  type ValuesUsed,
} from '../../engines/rules/index.js';

export type Decision = 'approved' | 'declined' | 'referred';
export type RiskBand = 'low' | 'medium' | 'high';

export interface CheckOutcome {
  type: JourneyCheckType;
  status: OutcomeStatus;
}

export interface DecisionResult {
  decision: Decision;
  risk: { score: number; band: RiskBand };
  reason_codes: string[];
  /** Every check of the journey with its final status, risk_score included (derived from the band). */
  checks: CheckOutcome[];
  /** The journey's CEL rules as evaluated (empty when it has none): the decision trail. */
  rules: JourneyRuleTrail[];
}

/** One journey rule at the decision: its key, what a match does, the result and the values it read. */
export interface JourneyRuleTrail {
  key: string;
  outcome: 'refer' | 'decline';
  result: 'match' | 'no_match' | 'error';
  values_used: ValuesUsed;
  error?: { code: string; message: string };
}

/**
 * Reason codes: `<check>_<status>` for every non-clean outcome that a rule acted on, `risk_band_medium`
 * and `risk_band_high` when a band rule acted, and `manual_approved` / `manual_declined` for a
 * reviewer's decision. Published in docs/verifications.md and the OpenAPI description.
 */
export const REASON_CODES: readonly string[] = [
  ...JOURNEY_CHECK_TYPES.filter((t) => t !== 'risk_score').flatMap((t) =>
    statusesOf(t)
      .slice(1)
      .map((s) => `${t}_${s}`),
  ),
  'risk_band_medium',
  'risk_band_high',
  'manual_approved',
  'manual_declined',
  'journey_rule_<key>',
  'journey_rule_<key>_error_<code>',
];

/**
 * What the decision step knows beyond the statuses, for journey rules: the subject and declared data
 * (the session's creation data), each check's score and reasons, the document's fields, the capture,
 * and the decision time (ages and expiry are computed at it).
 */
export type DecisionFacts = Partial<Pick<JourneyRuleInput, 'subject' | 'results' | 'document' | 'declared' | 'capture' | 'now'>>;

// Journey versions are immutable, so a rule's compiled form is cached by its source (bounded).
const compiledRules = new Map<string, CompiledExpression | { error: { code: string; message: string } }>();

function compiled(r: JourneyRule) {
  let c = compiledRules.get(r.expression);
  if (!c) {
    const out = compileJourneyRules(JOURNEY_CHECK_TYPES, [r]);
    c = out.ok ? out.expressions[0]! : { error: { code: out.errors[0]!.code, message: out.errors[0]!.message } };
    if (compiledRules.size >= 500) compiledRules.clear();
    compiledRules.set(r.expression, c);
  }
  return c;
}

/** `journey_rule_<key>` for a match; `journey_rule_<key>_error_<code>` (refer) for a rule that cannot be run. */
function journeyRuleReasons(
  rules: readonly JourneyRule[],
  checks: Record<string, string>,
  risk: { score: number; band: string },
  facts: DecisionFacts,
): { declines: string[]; refers: string[]; trail: JourneyRuleTrail[] } {
  const declines: string[] = [];
  const refers: string[] = [];
  const trail: JourneyRuleTrail[] = [];
  const errorReason = (key: string, code: string) => `journey_rule_${key}_error_${code.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
  const forms = rules.map(compiled);
  const runnable = rules.flatMap((r, i) => {
    const c = forms[i]!;
    return 'error' in c ? [] : [{ r, c }];
  });
  // One context for every rule (keys are unique within a journey: checked when it is saved).
  const results = new Map(
    evaluateJourneyRules(
      JOURNEY_CHECK_TYPES,
      runnable.map((x) => x.r),
      runnable.map((x) => x.c),
      { ...facts, checks, risk, subject: facts.subject ?? {} },
    ).map((res) => [res.key, res]),
  );
  rules.forEach((r, i) => {
    const c = forms[i]!;
    const res = 'error' in c ? { ...c, values_used: {} } : results.get(r.key)!;
    if ('error' in res) {
      refers.push(errorReason(r.key, res.error.code));
      trail.push({ key: r.key, outcome: r.outcome, result: 'error', values_used: res.values_used, error: res.error });
    } else {
      if (res.matched) (r.outcome === 'decline' ? declines : refers).push(`journey_rule_${r.key}`);
      trail.push({ key: r.key, outcome: r.outcome, result: res.matched ? 'match' : 'no_match', values_used: res.values_used });
    }
  });
  return { declines, refers, trail };
}

const BAND_RANK: Record<RiskBand, number> = { low: 0, medium: 1, high: 2 };

export function bandOf(score: number, scoring: JourneyDefinition['risk_scoring']): RiskBand {
  if (score >= scoring.high_from) return 'high';
  if (score >= scoring.medium_from) return 'medium';
  return 'low';
}

/**
 * The journey's decision over finished check outcomes: risk points add up (capped at 100) to a band;
 * any decline rule (or the decline band) declines; otherwise any refer rule (or the refer band)
 * refers; then the journey's CEL rules (a match refers or declines, an error refers); otherwise approved. Pure: the sandbox, the check pipeline and tests all call this.
 */
export function decide(def: JourneyDefinition, outcomes: CheckOutcome[], facts: DecisionFacts = {}): DecisionResult {
  const byType = new Map(outcomes.map((o) => [o.type, o.status]));
  for (const c of def.checks) {
    if (c.type === 'risk_score') continue;
    const s = byType.get(c.type);
    if (!s) throw new Error(`decide: no outcome for the ${c.type} check`);
    if (!statusesOf(c.type).includes(s)) throw new Error(`decide: ${s} is not a ${c.type} outcome`);
  }
  const score = Math.min(
    100,
    def.risk_scoring.signals.reduce((sum, sig) => sum + (byType.get(sig.check) === sig.status ? sig.points : 0), 0),
  );
  const band = bandOf(score, def.risk_scoring);

  const fired = (rules: JourneyDefinition['decision_rules']['decline']) =>
    rules.filter((r) => r.statuses.includes(byType.get(r.check) as never)).map((r) => `${r.check}_${byType.get(r.check)}`);
  const atBand = (limit: 'medium' | 'high' | null) => limit !== null && BAND_RANK[band] >= BAND_RANK[limit];
  const declines = fired(def.decision_rules.decline);
  const refers = fired(def.decision_rules.refer);
  const bandDeclines = atBand(def.decision_rules.decline_at_band);
  const bandRefers = atBand(def.decision_rules.refer_at_band);
  if (bandDeclines) declines.push(`risk_band_${band}`);
  else if (bandRefers) refers.push(`risk_band_${band}`);
  let trail: JourneyRuleTrail[] = [];
  if (def.rules?.length) {
    const checks = Object.fromEntries(def.checks.filter((c) => c.type !== 'risk_score').map((c) => [c.type, byType.get(c.type)!]));
    const fromRules = journeyRuleReasons(def.rules, checks, { score, band }, facts);
    declines.push(...fromRules.declines);
    refers.push(...fromRules.refers);
    trail = fromRules.trail;
  }

  const decision: Decision = declines.length > 0 ? 'declined' : refers.length > 0 ? 'referred' : 'approved';
  const reason_codes = [...new Set(decision === 'declined' ? [...declines, ...refers] : decision === 'referred' ? refers : [])];
  const riskStatus: OutcomeStatus = bandDeclines ? 'failed' : bandRefers ? 'needs_review' : 'passed';
  const checks = def.checks.map((c) => ({ type: c.type, status: c.type === 'risk_score' ? riskStatus : byType.get(c.type)! }));
  return { decision, risk: { score, band }, reason_codes, checks, rules: trail };
}
