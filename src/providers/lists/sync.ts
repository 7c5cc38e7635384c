import type { ListInput, ListSource } from './list-source.js';

// The parts of `lists sync` that are not about the database: download a source's file(s), classify a
// failed download, and the size rules a parsed download must pass. The service composes them around
// its parse worker (modules/checks/screening/list-sync.ts): a failed or partial download returns
// { ok: false } and the caller keeps serving the previous snapshot.

export type FetchFn = (
  url: string,
  init?: { signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; arrayBuffer(): Promise<ArrayBuffer> }>;

export interface DownloadOptions {
  source: ListSource;
  /** One URL, or file name → URL for multi-file formats (default: the format's official URL). */
  urls?: string | Record<string, string>;
  fetch?: FetchFn;
  timeoutMs?: number;
}

export interface Failure {
  ok: false;
  reason: string;
  /** true: worth retrying later (network, 5xx, 429); false: the data is bad. */
  transient: boolean;
}

async function download(fetchFn: FetchFn, url: string, timeoutMs: number): Promise<Uint8Array> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const res = await fetchFn(url, { signal: ctl.signal });
    if (!res.ok) throw Object.assign(new Error(`HTTP ${res.status} from ${url}`), { transient: res.status >= 500 || res.status === 429 });
    return new Uint8Array(await res.arrayBuffer());
  } finally {
    clearTimeout(timer);
  }
}

/** Downloads a source's file(s); a failed download is classified (5xx, 429 and network errors are transient). */
export async function downloadListInput(o: DownloadOptions): Promise<{ ok: true; input: ListInput } | Failure> {
  const fetchFn = o.fetch ?? (globalThis.fetch as unknown as FetchFn);
  const timeoutMs = o.timeoutMs ?? 120_000;
  const urls = o.urls ?? o.source.officialUrl;
  if (!urls) return { ok: false, reason: `format ${o.source.name} has no official URL; pass urls`, transient: false };
  try {
    if (typeof urls === 'string') return { ok: true, input: await download(fetchFn, urls, timeoutMs) };
    const files: Record<string, Uint8Array> = {};
    for (const [name, url] of Object.entries(urls)) files[name] = await download(fetchFn, url, timeoutMs);
    return { ok: true, input: files };
  } catch (e) {
    const err = e as Error & { transient?: boolean };
    return { ok: false, reason: `download failed: ${err.message}`, transient: err.transient ?? true };
  }
}

/**
 * The size rules a parsed download must pass before it may replace the active snapshot; null when it
 * passes. `minEntities` defaults to 1; `maxDropRatio` (the share of the previous count it may lose) to 0.2.
 */
export function checkParsedSize(o: { count: number; previousCount: number; minEntities?: number; maxDropRatio?: number }): Failure | null {
  const min = o.minEntities ?? 1;
  if (o.count < min) return { ok: false, reason: `only ${o.count} entities (minimum ${min})`, transient: false };
  const maxDrop = o.maxDropRatio ?? 0.2;
  if (o.previousCount > 0 && o.count < o.previousCount * (1 - maxDrop)) {
    return {
      ok: false,
      reason: `entity count fell from ${o.previousCount} to ${o.count} (more than ${Math.round(maxDrop * 100)}%)`,
      transient: false,
    };
  }
  return null;
}

/** A download that does not parse: never transient (the same bytes will not parse later either). */
export function parseFailure(e: unknown): Failure {
  return { ok: false, reason: `parse failed: ${(e as Error).message}`, transient: false };
}
