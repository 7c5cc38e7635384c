import type { AggregatePlan } from './aggregate-plan.js';
import { celContextOf, type RuleContextInput, withAggregates } from './context.js';
import type { CompiledRuleSet } from './ruleset.js';

export interface NeededAggregates {
  /** Ids of the rules a guard decided (false whatever their aggregates are): evaluate() records them as not hit. */
  decided: ReadonlySet<string>;
  /** The plans of the aggregates the other rules read, in declaration order; the same array for the same set. */
  plans: readonly AggregatePlan[];
}

const NONE: ReadonlySet<string> = new Set();
/**
 * Distinct sets of needed aggregates kept per version; past that many, a new set is answered with every aggregate
 * the rules read (correct, only slower). Each set is a statement of its own in the module, so the sets are bounded
 * like the statements prepared per connection.
 */
const MAX_PLAN_SETS = 256;
/**
 * Per compiled version: the plan arrays by the set of keys needed, so one set is always one array; `every` (all the
 * aggregates the rules read, also in `byKeys`) answers a new set once `byKeys` is full.
 */
const PLAN_SETS = new WeakMap<CompiledRuleSet, { every: readonly AggregatePlan[]; byKeys: Map<string, readonly AggregatePlan[]> }>();

/**
 * Which aggregates this transaction's evaluation needs. A rule `tx.direction == "out" && agg.x >= 5` is false for an
 * incoming transaction whatever agg.x is (CEL's `&&` is commutative: a false operand makes it false, even when the
 * other is an error), so agg.x is computed only when a rule reading it is not already decided by one of its
 * conjuncts that read no aggregate (its guards, `CompiledExpression.guards`). A guard that errors or is true
 * decides nothing. Reading the history is the costly part of an evaluation; the guards are a few CEL operations.
 * `input` is the context without `agg`.
 */
export function neededAggregates(c: CompiledRuleSet, input: RuleContextInput): NeededAggregates {
  let cel: Record<string, object> | null = null;
  let decided: Set<string> | null = null;
  const keys = new Set<string>();
  for (const { rule, expression } of c.rules) {
    if (expression.aggregates.length === 0) continue;
    let isDecided = false;
    for (const guard of expression.guards) {
      cel ??= celContextOf(c.environment, withAggregates(input, undefined));
      let v: unknown;
      try {
        v = guard(cel);
      } catch {
        continue;
      }
      if (v === false) {
        isDecided = true;
        break;
      }
    }
    if (isDecided) (decided ??= new Set()).add(rule.id);
    else for (const k of expression.aggregates) keys.add(k);
  }
  return { decided: decided ?? NONE, plans: plansFor(c, keys) };
}

const setId = (keys: Iterable<string>) => [...keys].sort().join(' ');

function plansFor(c: CompiledRuleSet, keys: ReadonlySet<string>): readonly AggregatePlan[] {
  let sets = PLAN_SETS.get(c);
  if (sets === undefined) {
    const all = new Set(c.rules.flatMap((r) => r.expression.aggregates));
    const every = c.aggregates.filter((p) => all.has(p.key));
    PLAN_SETS.set(c, (sets = { every, byKeys: new Map([[setId(all), every]]) }));
  }
  const id = setId(keys);
  let plans = sets.byKeys.get(id);
  if (plans === undefined) {
    if (sets.byKeys.size >= MAX_PLAN_SETS) return sets.every;
    sets.byKeys.set(id, (plans = c.aggregates.filter((p) => keys.has(p.key))));
  }
  return plans;
}
