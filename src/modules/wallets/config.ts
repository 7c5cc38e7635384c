import { section, vars, Var, type SectionValue } from '../../platform/config-schema.js';

// Default ERC-20 tokens the EVM adapter reads (contract:symbol:decimals): USDT and USDC on Ethereum,
// where the OFAC list's stablecoin entries live.
const DEFAULT_TOKENS = '0xdac17f958d2ee523a2206206994597c13d831ec7:USDT:6,0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48:USDC:6';

/** The wallets module's settings (its door for the configuration loader; imports nothing heavy). */
export const walletsConfig = section(
  vars({
    /** Polls chain-data providers for transfers of monitored addresses; off by default (it reaches outside). */
    chainDataEnabled: Var.bool('WALLETS_CHAIN_DATA_ENABLED', false),
    /** An Esplora-style Bitcoin REST API (Blockstream esplora, mempool.space, electrs). */
    esploraUrl: Var.url('WALLETS_CHAIN_DATA_ESPLORA_URL', ['https:', 'http:']),
    /** An Ethereum JSON-RPC endpoint (ERC-20 Transfer logs of the configured tokens). */
    evmRpcUrl: Var.url('WALLETS_CHAIN_DATA_EVM_RPC_URL', ['https:', 'http:']),
    /** contract:symbol:decimals, comma-separated: the tokens whose transfers the EVM adapter records. */
    evmTokens: Var.text('WALLETS_CHAIN_DATA_EVM_TOKENS', {
      pattern: '^(0x[0-9a-fA-F]{40}:[A-Za-z0-9.]{1,20}:[0-9]{1,2})(,0x[0-9a-fA-F]{40}:[A-Za-z0-9.]{1,20}:[0-9]{1,2})*$',
      hint: 'contract:symbol:decimals, comma-separated',
    }),
    /** How often monitored addresses are polled. */
    chainDataIntervalMinutes: Var.num('WALLETS_CHAIN_DATA_INTERVAL_MINUTES', 10, 0.05, 24 * 60),
    /** Monitored addresses polled per run (least recently polled first). */
    chainDataBatch: Var.int('WALLETS_CHAIN_DATA_BATCH', 100, 1, 10_000),
    /** Lets the providers' URLs point to private networks (a node on the operator's LAN). */
    chainDataAllowPrivateNetworks: Var.bool('WALLETS_CHAIN_DATA_ALLOW_PRIVATE_NETWORKS', false),
    chainDataTimeoutMs: Var.int('WALLETS_CHAIN_DATA_TIMEOUT_MS', 10_000, 100, 120_000),
    /** Build the list address indexes and the tenants' graphs when the API starts, not on the first request. */
    prewarm: Var.bool('WALLETS_PREWARM', true),
    /** How often the API process re-reads the active list snapshots in the background (a switch is indexed before a request needs it). */
    listRefreshMs: Var.int('WALLETS_LIST_REFRESH_MS', 5000, 100, 3_600_000),
  }),
  (v) => ({
    prewarm: v.prewarm,
    listRefreshMs: v.listRefreshMs,
    chainData: {
      enabled: v.chainDataEnabled,
      esploraUrl: v.esploraUrl ?? null,
      evmRpcUrl: v.evmRpcUrl ?? null,
      evmTokens: Object.fromEntries(
        (v.evmTokens ?? DEFAULT_TOKENS).split(',').map((t) => {
          const [contract, symbol, decimals] = t.split(':');
          return [contract!.toLowerCase(), { symbol: symbol!, decimals: Number(decimals) }];
        }),
      ) as Record<string, { symbol: string; decimals: number }>,
      everyMs: Math.round(v.chainDataIntervalMinutes * 60_000),
      batch: v.chainDataBatch,
      allowPrivateNetworks: v.chainDataAllowPrivateNetworks,
      timeoutMs: v.chainDataTimeoutMs,
    },
  }),
);

export type WalletsConfig = SectionValue<typeof walletsConfig>;
