import {
  ChainDataError,
  getJson,
  type ChainDataProvider,
  type ChainTransfer,
  type HttpOptions,
  type TransferPage,
} from './chain-data-provider.js';

// Esplora-style Bitcoin REST API (Blockstream esplora, mempool.space, electrs-esplora):
// GET /address/:addr/txs gives mempool transactions then the newest 25 confirmed ones;
// GET /address/:addr/txs/chain/:last_seen_txid gives the next 25 confirmed, older ones.
// A UTXO transaction has no single sender, so each output is split across the input addresses in
// proportion to their input value (integer satoshi arithmetic); outputs back to an input address
// are change and are not transfers.

interface EsploraTx {
  txid: string;
  status: { confirmed: boolean; block_height?: number; block_time?: number };
  vin: Array<{ is_coinbase?: boolean; prevout?: { scriptpubkey_address?: string; value: number } | null }>;
  vout: Array<{ scriptpubkey_address?: string; value: number }>;
}

const PAGE = 25;

function btc(sats: bigint): string {
  const s = sats.toString().padStart(9, '0');
  const frac = s.slice(-8).replace(/0+$/, '');
  return `${s.slice(0, -8)}${frac ? `.${frac}` : ''}`;
}

export function transfersOfTx(tx: EsploraTx, chain = 'bitcoin'): ChainTransfer[] {
  const inputs = new Map<string, bigint>();
  for (const i of tx.vin) {
    const a = i.prevout?.scriptpubkey_address;
    if (a && i.prevout) inputs.set(a, (inputs.get(a) ?? 0n) + BigInt(i.prevout.value));
  }
  const totalIn = [...inputs.values()].reduce((a, b) => a + b, 0n);
  if (totalIn === 0n) return [];
  const out: ChainTransfer[] = [];
  const meta = {
    chain,
    txHash: tx.txid,
    ...(tx.status.block_height !== undefined ? { blockHeight: tx.status.block_height } : {}),
    ...(tx.status.block_time !== undefined ? { timestamp: new Date(tx.status.block_time * 1000).toISOString() } : {}),
  };
  for (const o of tx.vout) {
    const to = o.scriptpubkey_address;
    if (!to || inputs.has(to) || o.value <= 0) continue;
    for (const [from, v] of inputs) {
      const part = (BigInt(o.value) * v) / totalIn;
      if (part > 0n) out.push({ ...meta, from, to, amount: btc(part) });
    }
  }
  return out;
}

function isTxList(x: unknown): x is EsploraTx[] {
  return (
    Array.isArray(x) &&
    x.every(
      (t) =>
        typeof t === 'object' &&
        t !== null &&
        typeof (t as EsploraTx).txid === 'string' &&
        Array.isArray((t as EsploraTx).vin) &&
        Array.isArray((t as EsploraTx).vout),
    )
  );
}

export interface EsploraOptions extends HttpOptions {
  chain?: string;
  /** Upper bound on pages per call (default 20 = 500 confirmed transactions). */
  maxPages?: number;
}

export function esploraProvider(opts: EsploraOptions): ChainDataProvider {
  const chain = opts.chain ?? 'bitcoin';
  return {
    name: 'esplora',
    chain,
    async fetchTransfers(address: string, since?: string): Promise<TransferPage> {
      if (!/^[A-Za-z0-9]{14,90}$/.test(address))
        throw new ChainDataError('permanent', 'address has characters an Esplora path cannot carry');
      const transfers: ChainTransfer[] = [];
      let newest: string | undefined;
      let lastSeen: string | undefined;
      for (let page = 0; page < (opts.maxPages ?? 20); page++) {
        const path = lastSeen ? `address/${address}/txs/chain/${lastSeen}` : `address/${address}/txs`;
        const body = await getJson(opts, path);
        if (!isTxList(body)) throw new ChainDataError('permanent', `GET ${path}: unexpected response shape`);
        const confirmed = body.filter((t) => t.status?.confirmed);
        for (const tx of confirmed) {
          if (tx.txid === since) return { transfers, cursor: newest ?? since, complete: true };
          newest ??= tx.txid;
          for (const t of transfersOfTx(tx, chain)) if (t.from === address || t.to === address) transfers.push(t);
        }
        if (confirmed.length < PAGE) return { transfers, cursor: newest ?? since, complete: true };
        lastSeen = confirmed[confirmed.length - 1]!.txid;
      }
      return { transfers, cursor: newest ?? since, complete: false };
    },
  };
}
