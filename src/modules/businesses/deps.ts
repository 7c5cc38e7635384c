// What this module uses of other modules, through their one door.
export { raiseAlert } from '../cases/index.js';
export { SCREENING_INDEX, type ScreeningIndexCache as ScreeningIndexCacheLike } from '../checks/index.js';
export { decodeUpload, TEXT_CHECKS, type TextChecks as TextChecksLike } from '../checks/index.js';
export { createVerification, CreatedVerification, sessions } from '../verifications/index.js';
export { snapshots, SANDBOX_SOURCE } from '../checks/index.js';
