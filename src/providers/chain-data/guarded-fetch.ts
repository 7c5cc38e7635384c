import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressAllowed, checkDestinationUrl, guardedLookup } from '../../platform/net-guard.js';

const MAX_BODY = 32 * 1024 * 1024;

/**
 * A `fetch` for the chain-data adapters that goes through the outbound guard (platform/net-guard.ts):
 * the URL's form is checked, a literal address must be allowed, and a name is resolved by the guarded
 * lookup at connection time (DNS rebinding to 169.254.169.254 or, unless allowed, to a private
 * address is refused). No redirects are followed; bodies over 32 MiB are cut off as an error.
 */
export function guardedFetch(policy: { allowPrivateNetworks: boolean }): typeof fetch {
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
      const problem = checkDestinationUrl(url.toString(), { requireHttps: false, allowPrivateNetworks: policy.allowPrivateNetworks });
      if (problem) return reject(Object.assign(new Error(problem), { code: 'EADDRNOTALLOWED' }));
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !addressAllowed(host, policy.allowPrivateNetworks))
        return reject(Object.assign(new Error(`${host} is an address this service may not reach`), { code: 'EADDRNOTALLOWED' }));
      const body = typeof init.body === 'string' ? init.body : undefined;
      const headers = new Headers(init.headers);
      if (body !== undefined) headers.set('content-length', String(Buffer.byteLength(body)));
      const req = (url.protocol === 'https:' ? https : http).request(url, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(headers),
        lookup: guardedLookup(policy.allowPrivateNetworks),
      });
      const abort = () => req.destroy(Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }));
      if (init.signal) {
        if (init.signal.aborted) return abort();
        init.signal.addEventListener('abort', abort, { once: true });
      }
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY) return void req.destroy(new Error(`response larger than ${MAX_BODY} bytes`));
          chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          init.signal?.removeEventListener('abort', abort);
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode ?? 500, headers: h }));
        });
      });
      req.end(body);
    })) as typeof fetch;
}
