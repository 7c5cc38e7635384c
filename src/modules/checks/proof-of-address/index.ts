// The public face of src/modules/checks/proof-of-address: other modules import only what is exported here.
export { documentInputError, evaluateProofOfAddress } from './check-proof-of-address.js';
export { proofOfAddressModule } from './routes.js';
export { Country, DOCUMENT_MEDIA, MAX_DOCUMENT_BYTES } from './schemas.js';
export { TEXT_CHECKS } from './text-checks.js';
export type { TextChecks } from './text-checks.js';
