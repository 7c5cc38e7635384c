export {
  checkProofOfAddress,
  analyseProofOfAddress,
  POA_MODEL,
  type PoaOptions,
  type PoaResult,
  type PoaReason,
} from './check-proof-of-address.js';
export { classifyDocument, type Classification, type DocumentClass, type FeatureContribution } from './classify.js';
export { extractPoaFields, type PoaFields, type ExtractedName, type ExtractedAddress, type ExtractedDate } from './extract-fields.js';
export { parseAddress, type ParsedAddress } from './address.js';
export { findDates, type FoundDate } from './dates.js';
export { matchHolderName, type NameMatch } from './name-match.js';
export { FEATURE_NAMES } from './features.js';
