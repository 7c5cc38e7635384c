// The public face of src/modules/checks/document: other modules import only what is exported here.
export { evaluateDocument } from './document-check.js';
export type { DocumentUpload } from './document-check.js';
export { DOCUMENT_READER } from './reader.js';
export type { DocumentReader } from './reader.js';
export { documentCheckModule } from './routes.js';
export { DOCUMENT_TYPES } from './schemas.js';
export { documentConfig } from './settings.js';
export type { DocumentSettings } from './settings.js';
