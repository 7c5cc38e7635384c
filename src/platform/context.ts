import type { Db, Queryable } from './db.js';

export type Environment = 'sandbox' | 'production';

/** Who is acting: an API key, a hosted-page session token, an operator at the CLI, or the system itself. */
export interface Actor {
  type: 'api_key' | 'session_token' | 'operator' | 'system';
  id: string;
}

/**
 * An Idempotency-Key this request holds (claimed before the handler ran). `begin` marks the
 * transaction that does the work; `record` stores the response in that transaction, so the
 * change and its response commit together or not at all; `release` frees the key when the work
 * was undone (a failed request, a message that could not be sent).
 */
export interface IdempotencyBinding {
  begin(tx: Queryable): Promise<void>;
  record(tx: Queryable, result: unknown): Promise<void>;
  release(tx?: Queryable): Promise<void>;
  /** Stops renewing the claim's lease (the response went out; whatever was not settled lapses). */
  stop(): void;
  /** For a POST that wrote nothing in a transaction: store its response after the fact. */
  storeResponse(status: number, body: string): Promise<void>;
  /** The transaction that recorded the response has committed. */
  committed?(): void;
  /** A transaction has taken the key. */
  readonly used: boolean;
  /** The response was recorded or the key released. */
  readonly settled: boolean;
  /**
   * A key claimed inside the mutation's transaction (`claimInTransaction`): after a failure before
   * the claim, what a request with an already used key answers instead (replay, mismatch, 409), or null.
   */
  afterFailure?(
    err?: unknown,
  ): Promise<
    { kind: 'replay'; status: number; body: string } | { kind: 'mismatch' } | { kind: 'in_progress'; retryAfterSeconds: number } | null
  >;
}

/** What every verb receives: the database, the tenant, the actor, the request id and its scopes. */
export interface RequestContext {
  db: Db;
  accountId: string;
  environment: Environment;
  actor: Actor;
  scopes: readonly string[];
  requestId: string;
  idempotency?: IdempotencyBinding;
}

export function systemContext(db: Db, accountId: string, environment: Environment, requestId = 'system'): RequestContext {
  return { db, accountId, environment, actor: { type: 'system', id: 'system' }, scopes: ['*'], requestId };
}
