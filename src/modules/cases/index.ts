// The public face of src/modules/cases: other modules import only what is exported here.
export { announceCaseChange, closeAlertCases, closeSessionCases } from './close-case.js';
export { openAlertCase, openReviewCase } from './open-case.js';
export { caseRows } from './repository.js';
export { casesModule } from './routes.js';
export { reviewSeverity } from './severity.js';
export { CASE_EVENTS } from './events.js';
