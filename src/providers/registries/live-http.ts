// What the live registry adapters share: a GET for JSON through the net guard (private and link-local
// addresses refused unless the operator allows private networks), with a hard time limit, a bounded body,
// no redirects, an optional credential that never appears in an error or a log, and a per-adapter rate limit.

import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { createHash } from 'node:crypto';
import { addressAllowed, guardedLookup } from '../../platform/net-guard.js';
import type { EntityRecord, ParseStats, RegistryRecord, RegistrySourceName } from './registry-source.js';

export type LiveFailure = 'disabled' | 'not_found' | 'rate_limited' | 'timeout' | 'transient' | 'permanent' | 'address_not_allowed';

/** A live registry call that failed, classified: transient ones (timeout, 429, 5xx) are worth a later retry. */
export class LiveRegistryError extends Error {
  constructor(
    readonly kind: LiveFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LiveRegistryError';
  }
}

export interface LiveHttpOptions {
  baseUrl: string;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Sent as HTTP basic auth (Companies House: the API key as user, empty password). Never logged. */
  basicAuthUser?: string;
  /** Largest response body read (bytes). */
  maxBytes?: number;
  userAgent?: string;
}

/**
 * A token bucket: `perMinute` calls a minute, at most `burst` at once. `take(deadline)` waits for a token
 * when one comes before the deadline, otherwise refuses at once (a search must not queue past its time limit).
 */
export class RateLimit {
  private tokens: number;
  private last: number;
  constructor(
    private readonly perMinute: number,
    private readonly burst = Math.max(1, Math.min(10, perMinute)),
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = this.burst;
    this.last = now();
  }
  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) * this.perMinute) / 60_000);
    this.last = t;
  }
  async take(deadline: number): Promise<void> {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return;
    }
    const waitMs = Math.ceil(((1 - this.tokens) * 60_000) / this.perMinute);
    if (this.now() + waitMs > deadline) throw new LiveRegistryError('rate_limited', 'rate limit reached for this registry API');
    this.tokens -= 1; // reserve it: callers waiting together queue one behind the other
    await new Promise((r) => setTimeout(r, waitMs));
  }
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/** GETs `path` (relative to the base URL, query included) and parses JSON. 404 → not_found. */
export function getJson(o: LiveHttpOptions, path: string, deadline = Date.now() + o.timeoutMs): Promise<unknown> {
  const base = o.baseUrl.endsWith('/') ? o.baseUrl : `${o.baseUrl}/`;
  const url = new URL(path.replace(/^\//, ''), base);
  const label = `GET ${url.pathname}`; // no query (names searched), no credential
  const remaining = Math.min(o.timeoutMs, deadline - Date.now());
  if (remaining <= 0) return Promise.reject(new LiveRegistryError('timeout', `${label}: no time left`));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !addressAllowed(host, o.allowPrivateNetworks))
    return Promise.reject(new LiveRegistryError('address_not_allowed', `${label}: the address is not allowed`));
  const client = url.protocol === 'https:' ? https : http;
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_BYTES;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      accept: 'application/vnd.api+json, application/json',
      'user-agent': o.userAgent ?? 'Verity-KYB/1',
    };
    if (o.basicAuthUser !== undefined) headers.authorization = `Basic ${Buffer.from(`${o.basicAuthUser}:`).toString('base64')}`;
    const req = client.request(url, { method: 'GET', headers, lookup: guardedLookup(o.allowPrivateNetworks), agent: false });
    const timer = setTimeout(() => req.destroy(new LiveRegistryError('timeout', `${label}: no answer within ${remaining} ms`)), remaining);
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err instanceof LiveRegistryError) return reject(err);
      if (err.code === 'EADDRNOTALLOWED') return reject(new LiveRegistryError('address_not_allowed', `${label}: ${err.message}`));
      reject(new LiveRegistryError('transient', `${label}: ${err.code ?? 'network error'}`));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) req.destroy(new LiveRegistryError('permanent', `${label}: response larger than ${maxBytes} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        if (status === 404) return reject(new LiveRegistryError('not_found', `${label}: not found`, status));
        if (status === 429) return reject(new LiveRegistryError('rate_limited', `${label}: HTTP 429 from the registry`, status));
        if (status === 401 || status === 403)
          return reject(new LiveRegistryError('permanent', `${label}: HTTP ${status} (check the API key)`, status));
        if (status < 200 || status >= 300)
          return reject(
            new LiveRegistryError(status >= 500 || status === 408 ? 'transient' : 'permanent', `${label}: HTTP ${status}`, status),
          );
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          reject(new LiveRegistryError('permanent', `${label}: the answer is not JSON`, status));
        }
      });
      res.on('error', () => undefined); // destroy() above reports through req's 'error'
    });
    req.end();
  });
}

/** What a live adapter returns for one registry entry: its records in the domain shape, as one import batch. */
export interface LiveFetch {
  records: RegistryRecord[];
  stats: ParseStats;
  /** What was asked, for the batch's file name (`api.gleif.org lei-records/…`). */
  label: string;
  /** SHA-256 over the answers: the same answers again are the same batch (nothing changes). */
  digest: string;
}

export interface LiveSearch {
  name?: string;
  lei?: string;
  registrationNumber?: string;
  limit: number;
}

/** A registry's live API behind the same record shapes as its files. Disabled unless configured. */
export interface LiveRegistry {
  readonly source: RegistrySourceName;
  /** Entities matching the search, as the registry ranks them (at most `limit`). */
  search(q: LiveSearch, deadline: number): Promise<EntityRecord[]>;
  /** The entry with what the API says of its owners (parents, PSCs, officers, exceptions). */
  fetch(ref: string, deadline: number): Promise<LiveFetch>;
}

/** SHA-256 of the answers in the order they were read. */
export function digestOf(answers: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(answers)).digest('hex');
}
