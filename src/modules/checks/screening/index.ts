// The public face of src/modules/checks/screening: other modules import only what is exported here.
export { RESCREEN_QUEUE, SANDBOX_SOURCE, ensureSandboxSnapshot } from './activate-snapshot.js';
export { SCREENING_INDEX, ScreeningIndexCache } from './index-cache.js';
export type { DeltaAlert } from './index-worker.js';
export { listSyncSchedule, screeningJobHandlers } from './jobs.js';
export { LISTS_USAGE, runListsCommand } from './lists-cli.js';
export { screeningModule } from './routes.js';
export { toScreeningQuery } from './run-screening.js';
export type { QueryFields } from './run-screening.js';
export { DATASETS, ScreeningHit, ScreeningQueryFields, ScreeningRequest } from './schemas.js';
export { evaluateScreening } from './screen-subject.js';
export { NAME_SCREENINGS, NameScreeningMemo, isNoListError, screenName } from './screen-name.js';
export type { NameScreening } from './screen-name.js';
export { SCREENING_WORKER } from './screening-worker.js';
export type { ScreeningWorker } from './screening-worker.js';
export type { ScreeningSettings } from './settings.js';
export { snapshots } from './snapshot-repository.js';
export { nationalityAlpha2, screeningInputFor } from './session-input.js';
export type { SessionScreeningSettings } from './session-input.js';
