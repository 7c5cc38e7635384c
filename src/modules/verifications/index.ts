// The public face of src/modules/verifications: other modules import only what is exported here.
export { startCaptureIn, submitCaptureIn } from './complete.js';
export { verificationEvidenceModule } from './evidence/routes.js';
export { VERIFICATION_RECURRING, verificationJobHandlers } from './expire.js';
export { verificationImportsModule } from './imports/routes.js';
export { enrolJobHandlers } from './pipeline/enrol-approved.js';
export { pipelineJobHandlers } from './pipeline/pipeline.js';
export { sessions } from './repository.js';
export type { LivenessChallenge, SessionRow, Tenant } from './repository.js';
export { RETENTION_RECURRING, retentionJobHandlers } from './retention.js';
export { sandboxModule, verificationsModule } from './routes.js';
export { sessionByToken } from './session-token.js';
export type { TokenSession } from './session-token.js';
export { VERIFICATION_EVENTS } from './events.js';
export { sessionCaseSubject } from './case-subject.js';
export { createVerification } from './create-verification.js';
export { CreatedVerification } from './schemas.js';
