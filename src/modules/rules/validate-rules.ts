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

/**
 * POST /v1/rules/validate: compiles and type-checks an expression against the context and the draft's
 * aggregates (or the given ones), and checks given aggregate declarations. Always 200: the diagnostics
 * (field, code, message, position) are the answer; writes refuse the same problems with a 400.
 */
export async function validateRules({ ctx, input }: { ctx: RequestContext; input: ValidateRules }): Promise<ValidationResult> {
  const errors: ValidationError[] = [];
  let aggregates: AggregateDecl[];
  if (input.aggregates) {
    aggregates = input.aggregates as AggregateDecl[];
    aggregates.forEach((a, i) => errors.push(...validateAggregate(a, `aggregates[${i}]`)));
  } else {
    aggregates = (await effectiveDraft(ctx.db, ctx)).document.aggregates;
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
  };
}
