// Travel Rule engine: IVMS101 validation, message lifecycle, thresholds, reject codes, travel addresses.
// Pure TypeScript: no HTTP, no SQL. Protocol adapters (TRP, TRISA) live in src/providers/travel-rule.
export type * from './ivms101-types.js';
export { validateIvms101, type Ivms101Options, type Ivms101Profile } from './ivms101-validate.js';
export { normalizeIvms101, type NormalizeResult } from './ivms101-normalize.js';
export { IVMS101_SCHEMA } from './ivms101-schema.js';
export { isValidLei, leiCheckDigits } from './lei.js';
export { isIvmsCountryCode, countryCodeForName, ISO_3166_ALPHA2 } from './countries.js';
export { GLEIF_REGISTRATION_AUTHORITIES } from './registration-authorities.js';
export {
  transition,
  nextState,
  allowedActions,
  isTerminal,
  IllegalTransitionError,
  INITIAL_STATE,
  OUTGOING_TRANSITIONS,
  INCOMING_TRANSITIONS,
  type Direction,
  type MessageState,
  type MessageAction,
} from './state-machine.js';
export {
  decideThreshold,
  thresholdFor,
  compareDecimal,
  THRESHOLDS,
  FATF_DEFAULT,
  type Money,
  type JurisdictionThreshold,
  type ThresholdDecision,
} from './thresholds.js';
export { REJECT_CODES, rejectCode, type RejectCode } from './reject-codes.js';
export { encodeTravelAddress, decodeTravelAddress, makeTravelAddress, travelAddressUrl, TravelAddressError } from './travel-address.js';
