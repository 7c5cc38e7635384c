// The public face of src/modules/journeys: other modules import only what is exported here.
export { REASON_CODES, decide } from './decide.js';
export type { CheckOutcome, DecisionFacts, DecisionResult, JourneyRuleTrail } from './decide.js';
export { JourneyDefinition } from './definition.js';
export { ensureDefaultJourneys, isJourneyStale, journeys, seedDefaultJourneys, stillPublishedOrRaise } from './repository.js';
export type { PublishedJourney } from './repository.js';
export { journeysModule } from './routes.js';
export { JourneyKey } from './schemas.js';
