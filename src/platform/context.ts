import type { Db, Queryable } from './db.js';

export type Environment = 'sandbox' | 'production';

/** Who is acting: an API key, a hosted-page session token, an operator at the CLI, or the system itself. */
export interface Actor {
  type: 'api_key' | 'session_token' | 'operator' | 'system';
  id: string;
}

/**
 * Binds one idempotent request to the transaction that performs it: `begin` claims the key
 * inside the transaction, `record` stores the response in the same transaction, so the key,
 * the change and its response commit together or not at all.
 */
export interface IdempotencyBinding {
  begin(tx: Queryable): Promise<void>;
  record(tx: Queryable, result: unknown): Promise<void>;
  /** Frees a claimed key whose work was undone in a later step (e.g. a message that could not be sent). */
  release(tx: Queryable): Promise<void>;
  readonly used: boolean;
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
