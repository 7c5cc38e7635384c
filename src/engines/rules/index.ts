// Public face of the KYT rule engine: pure (no HTTP, no SQL). The module builds the context (tx, subject,
// counterparty, wallet, lists) and the aggregate values, then calls evaluate() with a compiled rule set.
export {
  DecimalError,
  type Decimal,
  parseDecimal,
  isDecimalString,
  compareDecimal,
  addDecimal,
  subtractDecimal,
  multiplyByRatio,
  toScaledUnits,
  fromScaledUnits,
  decimalToNumber,
} from './decimal.js';
export { isCurrencyCode, currencyMinorUnits, currencyCodes, amountProblem } from './currency.js';
export {
  type AggregateDecl,
  type AggregateFilter,
  type AggregateFunction,
  type GroupDimension,
  type TxRow,
  type TxRef,
  type ValidationError,
  AGGREGATE_FUNCTIONS,
  GROUP_DIMENSIONS,
  validateAggregate,
  parseWindow,
  MAX_WINDOW_MS,
} from './aggregates.js';
export { type AggregateValue, planAggregate } from './aggregate-plan.js';
export { type PresummedTotals, computeAggregate, computeAggregateWith, computeAggregates } from './aggregate-compute.js';
export { SlidingAggregates } from './sliding-window.js';
export { CONTEXT_TYPES, CONTEXT_VARIABLES, type RuleContextInput, buildEnvironment, withAggregates } from './context.js';
export { compileExpression, runExpression, type CompiledExpression } from './compile.js';
export { type NeededAggregates, neededAggregates } from './guards.js';
export {
  type JourneyRule,
  type JourneyRuleInput,
  type JourneyRuleResult,
  type ValuesUsed,
  ageAt,
  compileJourneyRules,
  evaluateJourneyRules,
} from './journey-rules.js';
export {
  type Rule,
  type RuleSet,
  type RuleStatus,
  type Severity,
  type Decision,
  type ForcedOutcome,
  type Thresholds,
  type CompiledRuleSet,
  type CompiledRule,
  type RuleSetResult,
  compileRuleSet,
  validateRuleSet,
  requiredAggregates,
  requiredContext,
  readsPath,
} from './ruleset.js';
export { type Evaluation, type RuleOutcome, type RuleOutcomeKind, type EvaluateOptions, evaluate, decide } from './evaluate.js';
export { type Typology, STARTER_TYPOLOGIES, starterRuleSet } from './typologies.js';
