// The public face of src/modules/checks/kernel: other modules import only what is exported here.
export { DOCUMENT_TYPES, IMAGE_TYPES, decodeUpload, sha256Hex, sniffContentType } from './media.js';
export type { MediaInput } from './media.js';
export { CHECK_COMPLETED, recordCheck, roundTimings } from './record-check.js';
export type { CheckOutcome } from './record-check.js';
export { MEDIA_PURPOSE, RESULT_PURPOSE, checkErasure, checks, mediaErasure, toCheck } from './repository.js';
export type { CheckPayload, CheckRow } from './repository.js';
export { checksModule } from './routes.js';
export { sessionChecks, sessionMedia } from './session-repository.js';
export type { EvidenceMediaRow, SessionCheckDetailRow, SessionCheckRow, SessionMediaRow } from './session-repository.js';
export { CHECK_STATUSES, CHECK_TYPES, Check, ImageField, checkBody } from './schemas.js';
export type { CheckStatus, CheckType } from './schemas.js';
export { SUBJECT_FIELD_NAMES, SubjectFields, emptyFields, fieldsFromDocument, fullName } from './subject-fields.js';
export { SCREENING_STATUSES, VERIFYING_STATUSES } from './outcome-statuses.js';
export type { OutcomeStatus } from './outcome-statuses.js';
