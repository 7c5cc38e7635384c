// A small TRP client over fetch: timeouts, and failures classified as transient (retry from the outbox)
// or permanent (do not retry; surface to a reviewer). The outbox and retries belong to the caller.
import {
  buildInquiryRequest,
  parseResolution,
  serializeConfirmation,
  serializeResolution,
  trpHeaders,
  TRP_HEADERS,
  type TrpConfirmation,
  type TrpInquiry,
  type TrpResolution,
} from './trp.js';

export class TrpClientError extends Error {
  override name = 'TrpClientError';
  constructor(
    message: string,
    readonly kind: 'transient' | 'permanent',
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface TrpClientOptions {
  fetch?: typeof fetch;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
}

export interface TrpPeerExtensions {
  required: string[];
  supported: string[];
  /** Required by the peer and not in our supported list. */
  missing: string[];
}

export interface TrpPeerIdentity {
  name: string;
  lei?: string;
  x509?: string;
}

// 408, 425 and 429 are the peer asking us to come back later; every 5xx may pass.
const TRANSIENT_STATUS = new Set([408, 425, 429]);

export function classifyStatus(status: number): 'transient' | 'permanent' {
  return status >= 500 || TRANSIENT_STATUS.has(status) ? 'transient' : 'permanent';
}

export function createTrpClient(options: TrpClientOptions = {}) {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(url: string, init: RequestInit, requestIdentifier?: string): Promise<{ status: number; text: string }> {
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (e) {
      const err = e as Error;
      const what = err.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : err.message;
      throw new TrpClientError(`TRP ${init.method ?? 'GET'} ${url}: ${what}`, 'transient');
    }
    if (!res.ok) {
      throw new TrpClientError(`TRP peer answered ${res.status}: ${text.slice(0, 200)}`, classifyStatus(res.status), res.status);
    }
    const echoed = res.headers.get(TRP_HEADERS.requestIdentifier);
    if (requestIdentifier !== undefined && echoed !== null && echoed !== requestIdentifier) {
      throw new TrpClientError(`TRP peer echoed request-identifier ${echoed}, expected ${requestIdentifier}`, 'permanent', res.status);
    }
    return { status: res.status, text };
  }

  async function discover(baseUrl: string, what: string): Promise<unknown> {
    const { text } = await call(new URL(what, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString(), { method: 'GET' });
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new TrpClientError(`TRP ${what} is not JSON`, 'permanent');
    }
  }

  return {
    /** POST an inquiry to the beneficiary's travel address URL; the answer may already be the resolution. */
    async inquire(url: string, inquiry: TrpInquiry, requestIdentifier: string): Promise<TrpResolution> {
      const req = buildInquiryRequest(inquiry, requestIdentifier);
      const { text } = await call(url, { method: 'POST', headers: req.headers, body: req.body }, requestIdentifier);
      // A bare 200/204 without a body is an acknowledgement in practice.
      if (text.trim() === '') return { kind: 'acknowledged', version: '' };
      const parsed = parseResolution(text);
      if (!parsed.ok) throw new TrpClientError(`TRP peer sent an invalid resolution: ${parsed.error.message}`, 'permanent');
      return parsed.value;
    },
    /** POST our resolution (approve / reject) to the originator's inquiry callback. */
    async resolve(callback: string, resolution: TrpResolution, requestIdentifier: string): Promise<void> {
      await call(
        callback,
        { method: 'POST', headers: trpHeaders(requestIdentifier), body: serializeResolution(resolution) },
        requestIdentifier,
      );
    },
    /** POST the confirmation (txid or canceled) to the beneficiary's approval callback. */
    async confirm(callback: string, confirmation: TrpConfirmation, requestIdentifier: string): Promise<void> {
      await call(
        callback,
        { method: 'POST', headers: trpHeaders(requestIdentifier), body: serializeConfirmation(confirmation) },
        requestIdentifier,
      );
    },
    /** GET {base}/identity (TRP discovery): the peer's name, LEI and certificate. */
    async identity(baseUrl: string): Promise<TrpPeerIdentity> {
      const o = (await discover(baseUrl, 'identity')) as Partial<TrpPeerIdentity>;
      if (typeof o?.name !== 'string') throw new TrpClientError('TRP identity has no name', 'permanent');
      return {
        name: o.name,
        ...(typeof o.lei === 'string' ? { lei: o.lei } : {}),
        ...(typeof o.x509 === 'string' ? { x509: o.x509 } : {}),
      };
    },
    /** GET {base}/version: the peer's TRP version and vendor. */
    async version(baseUrl: string): Promise<{ version: string; vendor?: string }> {
      const o = (await discover(baseUrl, 'version')) as { version?: unknown; vendor?: unknown };
      if (typeof o?.version !== 'string') throw new TrpClientError('TRP version has no version', 'permanent');
      return { version: o.version, ...(typeof o.vendor === 'string' ? { vendor: o.vendor } : {}) };
    },
    /**
     * GET {base}/extensions, and which extensions the peer requires that we do not support: sending to such a
     * peer would be refused, so the caller should route the transfer elsewhere (a permanent condition).
     */
    async extensions(baseUrl: string, supported: readonly string[] = []): Promise<TrpPeerExtensions> {
      const o = (await discover(baseUrl, 'extensions')) as { required?: unknown; supported?: unknown };
      const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
      const required = list(o?.required);
      return { required, supported: list(o?.supported), missing: required.filter((x) => !supported.includes(x)) };
    },
  };
}

export type TrpClient = ReturnType<typeof createTrpClient>;
