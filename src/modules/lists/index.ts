// The public face of src/modules/lists: other modules import only what is exported here.
export { normalizeListValue } from './normalize.js';
export { listsModule } from './routes.js';
export { listValueIndex, openValue, CLEAR_KINDS } from './protection.js';
export { allowlistedEntities, blocklistEntriesFor, listMembership, screeningListEntries, type ScreeningEntryRow } from './repository.js';
