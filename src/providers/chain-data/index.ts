// Chain data providers: transfers touching an address, for the wallet engine's exposure graph.
// Disabled by default; each adapter needs `enabled: true` and a base URL from configuration.

export {
  ChainDataError,
  classifyStatus,
  type ChainDataProvider,
  type ChainTransfer,
  type FailureKind,
  type HttpOptions,
  type TransferPage,
} from './chain-data-provider.js';
export { esploraProvider, transfersOfTx, type EsploraOptions } from './esplora.js';
export { evmJsonRpcProvider, type EvmRpcOptions } from './evm-json-rpc.js';
export { guardedFetch } from './guarded-fetch.js';
