// Chain data in domain terms: the transfers that touched an address since a cursor. Adapters
// (one file per API) turn a node's or indexer's shapes into these; the wallet engine's
// TransferGraph takes them as they are. Everything is off unless the operator enables it.

export interface ChainTransfer {
  chain: string;
  asset?: string;
  txHash: string;
  from: string;
  to: string;
  /** Decimal string in the asset's units (BTC, not satoshi). */
  amount: string;
  blockHeight?: number;
  /** ISO 8601, when the block time is known. */
  timestamp?: string;
}

export interface TransferPage {
  transfers: ChainTransfer[];
  /** Pass back as `since` next time: the newest confirmed transaction seen (or the old cursor). */
  cursor?: string;
  /** False when the page limit stopped the walk before it reached `since` or the oldest history. */
  complete: boolean;
}

export interface ChainDataProvider {
  readonly name: string;
  readonly chain: string;
  /** Confirmed transfers touching `address`, newest first, back to (not including) `since`. */
  fetchTransfers(address: string, since?: string): Promise<TransferPage>;
}

export type FailureKind = 'transient' | 'permanent';

export class ChainDataError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ChainDataError';
  }
}

/** 429, 5xx, timeouts and connection failures are worth retrying; other 4xx are not. */
export function classifyStatus(status: number): FailureKind {
  return status === 429 || status === 408 || status >= 500 ? 'transient' : 'permanent';
}

export interface HttpOptions {
  /** Adapters are disabled unless this is true (configuration, not code, turns network on). */
  enabled?: boolean;
  baseUrl: string;
  timeoutMs?: number;
  /** Attempts for transient failures (default 3), with 200 ms × attempt back-off. */
  attempts?: number;
  fetch?: typeof fetch;
}

export async function getJson(opts: HttpOptions, path: string, body?: unknown): Promise<unknown> {
  if (!opts.enabled) throw new ChainDataError('permanent', 'chain-data adapter is disabled (set enabled: true in its configuration)');
  const attempts = Math.max(1, opts.attempts ?? 3);
  const doFetch = opts.fetch ?? fetch;
  let last: ChainDataError | undefined;
  for (let i = 1; i <= attempts; i++) {
    try {
      const res = await doFetch(new URL(path, opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`), {
        method: body === undefined ? 'GET' : 'POST',
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
      if (res.ok) return await res.json();
      last = new ChainDataError(
        classifyStatus(res.status),
        `${body === undefined ? 'GET' : 'POST'} ${path}: HTTP ${res.status}`,
        res.status,
      );
    } catch (e) {
      if (e instanceof SyntaxError) throw new ChainDataError('permanent', `GET ${path}: response is not JSON`);
      last = new ChainDataError('transient', `GET ${path}: ${(e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message}`);
    }
    if (last.kind === 'permanent') throw last;
    if (i < attempts) await new Promise((r) => setTimeout(r, 200 * i));
  }
  throw last!;
}
