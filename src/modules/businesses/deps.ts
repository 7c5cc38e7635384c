// What this module uses of other modules, through their one door.
export { raiseAlert } from '../cases/index.js';
export { indexCacheFor, type ScreeningIndexCache as ScreeningIndexCacheLike } from '../checks/index.js';
export { decodeUpload, retainTextChecks } from '../checks/index.js';
import type { retainTextChecks as retain } from '../checks/index.js';
export type TextChecksLike = ReturnType<typeof retain>['checks'];
export { createVerification, CreatedVerification, sessions } from '../verifications/index.js';
export { snapshots, SANDBOX_SOURCE } from '../checks/index.js';
