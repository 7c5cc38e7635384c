// What this module uses of other modules, through their one door.
export { raiseAlert } from '../cases/index.js';
export { indexCacheFor, type ScreeningIndexCache as ScreeningIndexCacheLike } from '../checks/index.js';
