export type { ShareRange, NodeKind, OwnershipNode, Interest, OwnershipEdge, OwnershipGraph } from './types.js';
export { emptyGraph, addEdge, removeEdge } from './types.js';
export { fromBodsShare, toBodsShare, multiply, add, surelyAbove, possiblyAbove, UNKNOWN_SHARE } from './share-range.js';
export { buildFromBods, type BuildOptions } from './build-from-bods.js';
export {
  resolveUbos,
  isActive,
  type Basis,
  type UboOptions,
  type Ubo,
  type UboResult,
  type Unresolved,
  type UnresolvedReason,
  type OwnershipPath,
} from './resolve-ubos.js';
export { sanctionsExposure, type SanctionsExposure } from './sanctions-exposure.js';
