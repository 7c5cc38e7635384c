// Wallet screening engine: chain codecs and inference, direct list lookups, indirect exposure over
// known transfers, the policy table and screenWallet. No I/O: list files and chain data come in
// through providers (src/providers/lists/ofac-crypto.ts, src/providers/chain-data).

export {
  AddressError,
  type AddressErrorReason,
  type AddressKind,
  type ChainFamily,
  type ChecksumState,
  type ParsedAddress,
} from './types.js';
export { CHAINS, TOKEN_HOSTS, type ChainEntry } from './chains.js';
export { chainById, inferChains, parseAddress, resolveChainName, type ParseOutcome } from './parse.js';
export { eip55State, toChecksumAddress } from './evm.js';
export {
  CATEGORIES,
  isCategory,
  parseAttributionLines,
  type AttributionEntry,
  type Category,
  type IndexedEntry,
  type ListRef,
  type RejectedEntry,
} from './attribution.js';
export { AddressIndex } from './address-index.js';
export { parseTransferLines, type Transfer } from './transfers.js';
export { TransferGraph } from './exposure-graph.js';
export { computeExposure, type Direction, type ExposureFinding } from './exposure.js';
export { formatAmount, parseAmount } from './amounts.js';
export { DEFAULT_POLICY, LEVELS, levelFor, scoreFor, validatePolicy, type PolicyRow, type RiskLevel } from './policy.js';
export {
  riskFingerprint,
  screenWallet,
  type CategoryFinding,
  type EntrySource,
  type ScreenOptions,
  type WalletScreenResult,
} from './screen.js';
