import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressAllowed, guardedLookup } from '../../platform/net-guard.js';

export interface SendResult {
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  ok: boolean;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export interface SendOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

const EXCERPT_BYTES = 1024;

// Keep-alive agents: deliveries to one receiver reuse connections instead of a TCP (and TLS)
// handshake per event. The address guard runs when a connection is made, in `lookup`.
const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 };
const agents = {
  'http:public': new http.Agent(agentOptions),
  'http:private': new http.Agent(agentOptions),
  'https:public': new https.Agent(agentOptions),
  'https:private': new https.Agent(agentOptions),
};

/** POSTs one webhook: no redirects followed, a hard timeout, at most 1 KiB of the response kept. */
export function sendWebhook(opts: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      return resolve(done({ status: null, ok: false, error: 'invalid_url', responseExcerpt: null }));
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !addressAllowed(host, opts.allowPrivateNetworks)) {
      return resolve(done({ status: null, ok: false, error: 'address_not_allowed', responseExcerpt: null }));
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Verity-Webhooks/1',
        ...opts.headers,
        'content-length': String(Buffer.byteLength(opts.body)),
      },
      lookup: guardedLookup(opts.allowPrivateNetworks),
      timeout: opts.timeoutMs,
      // Pools per policy: a socket opened for a sandbox destination (private allowed) is never reused for a production one.
      agent: agents[`${url.protocol}${opts.allowPrivateNetworks ? 'private' : 'public'}` as keyof typeof agents],
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), opts.timeoutMs);
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const code =
        err.code === 'ETIMEDOUT' ? 'timeout' : err.code === 'EADDRNOTALLOWED' ? 'address_not_allowed' : (err.code ?? 'network_error');
      resolve(done({ status: null, ok: false, error: `${code}: ${err.message}`.slice(0, 500), responseExcerpt: null }));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(c.subarray(0, EXCERPT_BYTES - size));
        size += c.length;
      });
      res.on('end', () => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const error = ok
          ? null
          : status >= 300 && status < 400
            ? `redirect_not_followed: ${res.headers.location ?? ''}`.slice(0, 500)
            : `http_${status}`;
        resolve(done({ status, ok, error, responseExcerpt: Buffer.concat(chunks).toString('utf8') }));
      });
      res.on('error', () => undefined);
    });
    req.end(opts.body);
  });
}
