// The businesses module's one door.
export { REGISTRIES_USAGE, runRegistriesCommand } from './registry-cli.js';
export { importRegistryFile, type ImportOutcome } from './registry-import.js';
export { businessesModule } from './routes.js';
export { BUSINESS_EVENTS } from './events.js';
// For KYT: the business record of a subject or counterparty reference (rule context).
export { businessByReference, type BusinessRow, type BusinessContextRow } from './repository.js';
export { businessJobHandlers, BUSINESSES_RECURRING, rescreenBusinessesOnListUpdate } from './rescreen.js';
