import {
  ChainDataError,
  getJson,
  type ChainDataProvider,
  type ChainTransfer,
  type HttpOptions,
  type TransferPage,
} from './chain-data-provider.js';

// Ethereum JSON-RPC (any EVM node): ERC-20 Transfer logs touching an address, read with
// eth_getLogs twice per block window (address as topic 1 = from, as topic 2 = to), block times from
// eth_getBlockByNumber. The cursor is the last block fully read. Native ETH transfers are not in
// logs and need a tracing or indexing API; this adapter covers tokens only, which is where the
// OFAC list's USDT/USDC entries live. Token decimals come from configuration; a token not
// configured is skipped (a raw integer without decimals would be a wrong amount).

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  logIndex: string;
}

export interface EvmRpcOptions extends HttpOptions {
  chain?: string;
  /** Token contract (lower-case 0x…) → symbol and decimals, e.g. USDT on Ethereum: 6. */
  tokens: Record<string, { symbol: string; decimals: number }>;
  /** Blocks per eth_getLogs call (default 2,000) and windows per call (default 10). */
  blockSpan?: number;
  maxWindows?: number;
  /** Where to start when there is no cursor (default: the latest block − one window). */
  startBlock?: number;
}

function units(raw: bigint, decimals: number): string {
  if (decimals === 0) return raw.toString();
  const s = raw.toString().padStart(decimals + 1, '0');
  const frac = s.slice(-decimals).replace(/0+$/, '');
  return `${s.slice(0, -decimals)}${frac ? `.${frac}` : ''}`;
}

export function evmJsonRpcProvider(opts: EvmRpcOptions): ChainDataProvider {
  const chain = opts.chain ?? 'ethereum';
  let id = 0;
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const res = (await getJson(opts, '', { jsonrpc: '2.0', id: ++id, method, params })) as {
      result?: unknown;
      error?: { code: number; message: string };
    };
    if (res.error) {
      const transient = res.error.code === -32005 || /limit|rate|timeout|busy/i.test(res.error.message);
      throw new ChainDataError(transient ? 'transient' : 'permanent', `${method}: ${res.error.message} (${res.error.code})`);
    }
    return res.result;
  };
  const blockTimes = new Map<string, string>();
  const blockTime = async (hexBlock: string): Promise<string | undefined> => {
    if (!blockTimes.has(hexBlock)) {
      const b = (await call('eth_getBlockByNumber', [hexBlock, false])) as { timestamp?: string } | null;
      if (b?.timestamp) blockTimes.set(hexBlock, new Date(Number(BigInt(b.timestamp)) * 1000).toISOString());
    }
    return blockTimes.get(hexBlock);
  };
  return {
    name: 'evm-json-rpc',
    chain,
    async fetchTransfers(address: string, since?: string): Promise<TransferPage> {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new ChainDataError('permanent', 'not an EVM address');
      const topic = `0x${'0'.repeat(24)}${address.slice(2).toLowerCase()}`;
      const latest = Number(BigInt((await call('eth_blockNumber', [])) as string));
      const span = opts.blockSpan ?? 2_000;
      let from = since !== undefined ? Number(since) + 1 : (opts.startBlock ?? Math.max(0, latest - span + 1));
      const transfers: ChainTransfer[] = [];
      const seen = new Set<string>();
      let windows = 0;
      while (from <= latest && windows++ < (opts.maxWindows ?? 10)) {
        const to = Math.min(latest, from + span - 1);
        const range = { fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` };
        const logs = [
          ...((await call('eth_getLogs', [{ ...range, topics: [TRANSFER, topic] }])) as RpcLog[]),
          ...((await call('eth_getLogs', [{ ...range, topics: [TRANSFER, null, topic] }])) as RpcLog[]),
        ];
        for (const l of logs) {
          const token = opts.tokens[l.address.toLowerCase()];
          if (!token || l.topics.length !== 3 || seen.has(`${l.transactionHash}:${l.logIndex}`)) continue;
          seen.add(`${l.transactionHash}:${l.logIndex}`);
          const timestamp = await blockTime(l.blockNumber);
          transfers.push({
            chain,
            asset: token.symbol,
            txHash: l.transactionHash,
            from: `0x${l.topics[1]!.slice(26)}`,
            to: `0x${l.topics[2]!.slice(26)}`,
            amount: units(BigInt(l.data === '0x' ? 0 : l.data), token.decimals),
            blockHeight: Number(BigInt(l.blockNumber)),
            ...(timestamp ? { timestamp } : {}),
          });
        }
        from = to + 1;
      }
      return { transfers, cursor: String(from - 1), complete: from > latest };
    },
  };
}
