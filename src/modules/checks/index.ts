// The public face of the check family (src/modules/checks): the registry of check types, the session
// pipeline's step contract and the standalone check endpoints. Each check type's own module
// (kernel/, document/, face/, …) has its own face for what only it offers.
export { CHECK_REGISTRY, CHECK_ROUTES, JOURNEY_CHECK_TYPES, journeySettingsOf, runStep, statusesOf } from './registry.js';
export type { JourneyCheckType } from './registry.js';
export { withoutEngine } from './steps/outcomes.js';
export { challengeFrameKind } from './steps/face.js';
export { CHECK_EVENTS } from './events.js';
export type { CapturedMedium, CheckRoutes, CheckTypeEntry, PipelineStep, StepOutcome, StepResources, StepState } from './check-type.js';
// What other modules use of the check types' own modules: the family has one door.
export { SENDERS, purgeContactHistory } from './contact/index.js';
export { DOCUMENT_READER, DOCUMENT_TYPES } from './document/index.js';
export type { DocumentReader, DocumentSettings } from './document/index.js';
export {
  FACE_ENGINE,
  FACE_INDEX,
  embeddingModelKey,
  faceEnrollmentErasure,
  faceEnrollments,
  hasVectorColumn,
  newEnrollmentId,
} from './face/index.js';
export { DOCUMENT_TYPES as DOCUMENT_MEDIA_TYPES } from './kernel/index.js';
export {
  CHECK_STATUSES,
  CHECK_TYPES,
  IMAGE_TYPES,
  MEDIA_PURPOSE,
  RESULT_PURPOSE,
  SCREENING_STATUSES,
  SubjectFields,
  VERIFYING_STATUSES,
  checkErasure,
  checks,
  decodeUpload,
  emptyFields,
  mediaErasure,
  sessionChecks,
  sessionMedia,
  sha256Hex,
  sniffContentType,
} from './kernel/index.js';
export type { CheckOutcome, CheckPayload, MediaInput, OutcomeStatus, SessionCheckRow, SessionMediaRow } from './kernel/index.js';
export { TEXT_CHECKS } from './proof-of-address/index.js';
export type { TextChecks } from './proof-of-address/index.js';
export {
  LISTS_USAGE,
  NAME_SCREENINGS,
  NameScreeningMemo,
  RESCREEN_QUEUE,
  SANDBOX_SOURCE,
  SCREENING_INDEX,
  SCREENING_WORKER,
  ScreeningHit,
  ScreeningQueryFields,
  ensureSandboxSnapshot,
  evaluateScreening,
  isNoListError,
  listSyncSchedule,
  runListsCommand,
  screeningInputFor,
  screenName,
  screeningJobHandlers,
  snapshots,
  toScreeningQuery,
} from './screening/index.js';
export type {
  DeltaAlert,
  NameScreening,
  QueryFields,
  ScreeningIndexCache,
  ScreeningWorker,
  SessionScreeningSettings,
} from './screening/index.js';
