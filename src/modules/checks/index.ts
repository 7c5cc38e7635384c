// The public face of the check family (src/modules/checks): the registry of check types, the session
// pipeline's step contract and the standalone check endpoints. Each check type's own module
// (kernel/, document/, face/, …) has its own face for what only it offers.
export { CHECK_REGISTRY, CHECK_ROUTES, JOURNEY_CHECK_TYPES, journeySettingsOf, runStep, statusesOf } from './registry.js';
export type { JourneyCheckType } from './registry.js';
export { withoutEngine } from './steps/outcomes.js';
export type { CapturedMedium, CheckRoutes, CheckTypeEntry, PipelineStep, StepOutcome, StepResources, StepState } from './check-type.js';
