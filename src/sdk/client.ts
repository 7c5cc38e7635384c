/**
 * The typed Verity client: `import { Verity } from 'verity/client'`. Types come from the app's OpenAPI
 * document (src/sdk/openapi-types.ts, generated); the runtime is fetch and nothing else.
 *
 *   const verity = new Verity({ apiKey: 'sk_live_…', baseUrl: 'https://verity.example.org' });
 *   const key = await verity.request('createApiKey', { body: { name: 'CRM', scopes: ['usage:read'] } });
 *   const same = await verity.request('GET', '/v1/api-keys/{id}', { path: { id: key.id } });
 *   const page = await verity.apiKeys.listApiKeys({ query: { limit: 10 } });
 *
 * Retries: only 429 and 5xx answers (any method), and network failures or timeouts of idempotent
 * requests (GET, HEAD, PUT, DELETE, and POST, which always carries an Idempotency-Key: the same key
 * on every attempt, so the server does the work once). Retry-After is honoured; otherwise exponential
 * backoff with full jitter. Any other answer of 400 or more throws VerityError with the error envelope.
 */
import { randomUUID } from 'node:crypto';
import { NAMESPACES, OPERATIONS, type OperationId, type operations, type paths } from './openapi-types.js';

export type { OperationId, operations, paths, components, events } from './openapi-types.js';

export interface VerityOptions {
  /** sk_sandbox_… or sk_live_… */
  apiKey: string;
  /** The service's address, e.g. https://verity.example.org (default http://127.0.0.1:3000). */
  baseUrl?: string;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Each attempt's time limit in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** The first backoff step in milliseconds, doubled each retry, jittered (default 500). */
  retryBaseMs?: number;
  /** The longest wait between attempts, Retry-After included (default 30 000 ms). */
  maxRetryDelayMs?: number;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch;
}

/** Per call: an Idempotency-Key of your own (default: a random one per call, reused on its retries), an abort signal, extra headers. */
export interface RequestOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type Op<K extends OperationId> = operations[K];
type PathPart<K extends OperationId> =
  Op<K>['pathParams'] extends Record<string, never> ? { path?: undefined } : { path: Op<K>['pathParams'] };
type QueryPart<K extends OperationId> =
  Op<K>['query'] extends Record<string, never>
    ? { query?: undefined }
    : Record<string, never> extends Op<K>['query']
      ? { query?: Op<K>['query'] }
      : { query: Op<K>['query'] };
type BodyPart<K extends OperationId> = [Op<K>['body']] extends [never]
  ? { body?: undefined }
  : Op<K>['bodyRequired'] extends true
    ? { body: Op<K>['body'] }
    : { body?: Op<K>['body'] };
/** What a call of operation K takes: path parameters, query, body (each when the operation has them) and options. */
export type RequestArgs<K extends OperationId> = PathPart<K> & QueryPart<K> & BodyPart<K> & RequestOptions;
type ArgsTuple<K extends OperationId> = {} extends PathPart<K> & QueryPart<K> & BodyPart<K>
  ? [args?: RequestArgs<K>]
  : [args: RequestArgs<K>];
/** The body of operation K's success answer. */
export type Result<K extends OperationId> = Op<K>['success'];

/** What send() reads of a call's arguments (the typed signatures above narrow it per operation). */
type LooseArgs = RequestOptions & { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

type NamespaceClient = {
  readonly [N in keyof typeof NAMESPACES]: {
    readonly [K in (typeof NAMESPACES)[N][number]]: (...args: ArgsTuple<K>) => Promise<Result<K>>;
  };
};

export interface ErrorEnvelope {
  error: { code: string; message: string; field: string | null; request_id: string };
}

/** An answer of 400 or more (after retries, for 429 and 5xx), with the service's error envelope. */
export class VerityError extends Error {
  readonly code: string;
  readonly field: string | null;
  readonly requestId: string | null;
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope | null,
    readonly headers: Headers,
  ) {
    super(envelope?.error.message ?? `HTTP ${status} without an error envelope`);
    this.name = 'VerityError';
    this.code = envelope?.error.code ?? (status >= 500 ? 'internal_error' : 'http_error');
    this.field = envelope?.error.field ?? null;
    this.requestId = envelope?.error.request_id ?? headers.get('x-request-id');
  }
}

/** The service could not be reached, or did not answer in time, on every attempt. */
export class VerityConnectionError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'VerityConnectionError';
  }
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'POST']);
const HTTP_METHODS = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'POST']);

/** Seconds or an HTTP date, as milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Full jitter: a random wait between 0 and base·2^attempt, capped. */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** attempt));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export class Verity {
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetch: typeof fetch;

  constructor(options: VerityOptions) {
    if (!options.apiKey) throw new TypeError('Verity: apiKey is required');
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 2;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    for (const [ns, ids] of Object.entries(NAMESPACES)) {
      const group: Record<string, (args?: LooseArgs) => Promise<unknown>> = {};
      for (const id of ids) group[id] = (args) => this.send(id, args);
      Object.defineProperty(this, ns, { value: Object.freeze(group), enumerable: true });
    }
  }

  /** Calls an operation by its operationId, or by method and path template: `request('GET', '/v1/api-keys/{id}', { path: { id } })`. */
  request<K extends OperationId>(operationId: K, ...args: ArgsTuple<K>): Promise<Result<K>>;
  request<P extends keyof paths, M extends keyof paths[P]>(
    method: M,
    path: P,
    ...args: ArgsTuple<paths[P][M] & OperationId>
  ): Promise<Result<paths[P][M] & OperationId>>;
  request(first: string, ...rest: unknown[]): Promise<unknown> {
    if (Object.hasOwn(OPERATIONS, first)) return this.send(first as OperationId, rest[0] as LooseArgs | undefined);
    const path = rest[0];
    if (!HTTP_METHODS.has(first) || typeof path !== 'string') throw new TypeError(`Verity: unknown operation ${first}`);
    const found = Object.entries(OPERATIONS).find(([, o]) => o.method === first && o.path === path);
    if (!found) throw new TypeError(`Verity: no operation ${first} ${path}`);
    return this.send(found[0] as OperationId, rest[1] as LooseArgs | undefined);
  }

  private async send(id: OperationId, args: LooseArgs = {}): Promise<unknown> {
    const { method, path } = OPERATIONS[id];
    const url = new URL(
      this.baseUrl +
        path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          const v = args.path?.[name];
          if (v === undefined || v === null) throw new TypeError(`Verity: ${id} needs path parameter ${name}`);
          return encodeURIComponent(String(v));
        }),
    );
    for (const [k, v] of Object.entries(args.query ?? {})) {
      if (v === undefined || v === null) continue;
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(one));
    }
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${this.apiKey}`, ...args.headers };
    let body: string | FormData | undefined;
    if (args.body instanceof FormData) body = args.body;
    else if (args.body !== undefined) {
      body = JSON.stringify(args.body);
      headers['content-type'] = 'application/json';
    }
    // One key for every attempt of this call: what makes retrying a POST safe.
    if (method === 'POST') headers['idempotency-key'] = args.idempotencyKey ?? randomUUID();

    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = args.signal ? AbortSignal.any([args.signal, timeout]) : timeout;
      let res: Response;
      try {
        res = await this.fetch(url, { method, headers, body, signal });
      } catch (cause) {
        if (args.signal?.aborted) throw cause;
        if (!IDEMPOTENT.has(method) || attempt >= this.maxRetries)
          throw new VerityConnectionError(`${method} ${url.pathname}: ${cause instanceof Error ? cause.message : String(cause)}`, {
            cause,
          });
        await sleep(backoffMs(attempt, this.retryBaseMs, this.maxRetryDelayMs), args.signal);
        continue;
      }
      if (res.ok) return read(res);
      const retryable = res.status === 429 || res.status >= 500;
      if (retryable && attempt < this.maxRetries) {
        const wait = retryAfterMs(res.headers.get('retry-after')) ?? backoffMs(attempt, this.retryBaseMs, this.maxRetryDelayMs);
        await res.body?.cancel();
        await sleep(Math.min(wait, this.maxRetryDelayMs), args.signal);
        continue;
      }
      const data = await read(res).catch(() => null);
      const envelope = isEnvelope(data) ? data : null;
      throw new VerityError(res.status, envelope, res.headers);
    }
  }
}

// The namespaces (verity.apiKeys.createApiKey, verity.verifications.…) are made in the constructor from NAMESPACES.
export interface Verity extends NamespaceClient {}

async function read(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (/json/.test(type)) {
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  }
  return res.arrayBuffer();
}

function isEnvelope(x: unknown): x is ErrorEnvelope {
  const e = (x as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof e?.code === 'string' && typeof e.message === 'string';
}
