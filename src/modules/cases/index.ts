// The public face of src/modules/cases: other modules import only what is exported here.
export { announceCaseChange, closeAlertCases, closeSessionCases } from './close-case.js';
export { openAlertCase, openReviewCase } from './open-case.js';
export { DEFAULT_ALERT_COOLDOWN_SECONDS, raiseAlert, raiseAlerts, type RaiseAlertInput, type RaisedAlert } from './alerts.js';
export { alertRows, caseRows, toAlert, type AlertRow } from './repository.js';
export { ALERT_KINDS, Alert, type AlertKind } from './schemas.js';
export type { Severity } from './severity.js';
export { casesModule } from './routes.js';
export { reviewSeverity } from './severity.js';
export { CASE_EVENTS } from './events.js';
export { assertReviewOwner } from './claim-case.js';
export { registerCaseSubjectSources, type CaseSubjectSource } from './subject-sources.js';
export { caseCommentErasure } from './case-comments.js';
