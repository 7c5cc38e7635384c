import { Environment } from '@marcbachmann/cel-js';
import type { ValidationError } from './aggregates.js';
import { type CompiledExpression, compileExpression, runExpression } from './compile.js';
import type { RuleEnvironment } from './context.js';

/**
 * Journey rules: the same CEL compiler and runner as transaction rules, over the context a
 * verification's decision has: `checks.<type>` (the check's final status, '' when the journey has no
 * such check), `risk` (score and band from the journey's scoring) and `subject` (type, reference,
 * country as the session was created). One environment per list of check types, built once.
 */
export interface JourneyRule {
  key: string;
  expression: string;
  outcome: 'refer' | 'decline';
  description?: string;
}

export interface JourneyRuleInput {
  checks: Record<string, string>;
  risk: { score: number; band: string };
  subject: { type?: string | null; reference?: string | null; country?: string | null };
}

export type JourneyRuleResult =
  | { key: string; outcome: 'refer' | 'decline'; matched: boolean }
  | { key: string; outcome: 'refer' | 'decline'; error: { code: string; message: string } };

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
  register('JourneyChecks', Object.fromEntries(checkTypes.map((t) => [t, 'string'])));
  register('JourneyRisk', { score: 'int', band: 'string' });
  register('JourneySubject', { type: 'string', reference: 'string', country: 'string' });
  env.registerVariable('checks', 'JourneyChecks');
  env.registerVariable('risk', 'JourneyRisk');
  env.registerVariable('subject', 'JourneySubject');
  const re: RuleEnvironment = { env, classes, aggregates: [], roots: new Set(['checks', 'risk', 'subject']) };
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

/** Evaluates compiled journey rules in order; a rule that throws is reported as an error, never as a miss. */
export function evaluateJourneyRules(
  checkTypes: readonly string[],
  rules: readonly JourneyRule[],
  expressions: readonly CompiledExpression[],
  input: JourneyRuleInput,
): JourneyRuleResult[] {
  const re = journeyEnvironment(checkTypes);
  const c = re.classes;
  const cel = {
    checks: new c.JourneyChecks!(Object.fromEntries(checkTypes.map((t) => [t, input.checks[t] ?? '']))),
    risk: new c.JourneyRisk!({ score: BigInt(Math.trunc(input.risk.score)), band: input.risk.band }),
    subject: new c.JourneySubject!({
      type: input.subject.type ?? '',
      reference: input.subject.reference ?? '',
      country: input.subject.country ?? '',
    }),
  };
  return rules.map((r, i) => {
    const run = runExpression(expressions[i]!, cel);
    return run.ok ? { key: r.key, outcome: r.outcome, matched: run.value } : { key: r.key, outcome: r.outcome, error: run.error };
  });
}
