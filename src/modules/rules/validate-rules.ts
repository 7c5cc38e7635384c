import type { RequestContext } from '../../platform/context.js';
import {
  buildEnvironment,
  compileExpression,
  validateAggregate,
  type AggregateDecl,
  type ValidationError,
} from '../../engines/rules/index.js';
import { effectiveDraft } from './rule-set.js';
import type { ValidateRules, ValidationResult } from './schemas.js';
import { testSample } from './sample-test.js';

/**
 * POST /v1/rules/validate: compiles and type-checks an expression against the context and the draft's
 * aggregates (or the given ones), and checks given aggregate declarations. Always 200: the diagnostics
 * (field, code, message, position) are the answer; writes refuse the same problems with a 400. With a
 * `sample` (a rule context), the draft's active and test rules and the expression are evaluated over it.
 */
export async function validateRules({ ctx, input }: { ctx: RequestContext; input: ValidateRules }): Promise<ValidationResult> {
  const errors: ValidationError[] = [];
  let aggregates: AggregateDecl[];
  const draft = input.aggregates && !input.sample ? null : (await effectiveDraft(ctx.db, ctx)).document;
  if (input.aggregates) {
    aggregates = input.aggregates as AggregateDecl[];
    aggregates.forEach((a, i) => errors.push(...validateAggregate(a, `aggregates[${i}]`)));
  } else {
    aggregates = draft!.aggregates;
  }
  let reads: string[] = [];
  if (input.expression !== undefined && errors.length === 0) {
    const r = compileExpression(buildEnvironment(aggregates), input.expression, 'expression');
    if (r.ok) reads = r.expression.paths;
    else errors.push(...r.errors);
  }
  return {
    object: 'rule_validation',
    valid: errors.length === 0,
    errors: errors.map((e) => ({ field: e.field, code: e.code, message: e.message, position: e.position ?? null })),
    reads,
    // The draft's rules (and a valid expression) over the sample, with the draft's aggregates.
    ...(input.sample && draft
      ? { sample_result: testSample(draft, input.sample, errors.length === 0 && !input.aggregates ? input.expression : undefined) }
      : {}),
  };
}
