import { canBatch, canSendWithCommit, canSendWithNext, type Batching, type CommittingTx, type Queryable, type Statement } from './db.js';
import type { RequestContext } from './context.js';

interface Deferred {
  sql: string;
  params: readonly unknown[];
}

/**
 * A transaction that can hold back writes nobody reads inside it (audit rows, usage records,
 * outbox events, the idempotent response) and send them to the database as one statement just
 * before COMMIT. The records still commit or roll back with the change; an audited idempotent
 * write costs one round trip more than the change itself instead of four.
 */
export interface DeferringTx extends Queryable {
  defer(sql: string, params: readonly unknown[]): void;
  /**
   * A write sent as a statement of its own just before the deferred ones (and with them and COMMIT, in one
   * message where the connection can): for a statement that must fail the transaction by raising an error
   * (a data-modifying CTE cannot be nested in the combined one).
   */
  deferStatement(sql: string, params: readonly unknown[]): void;
}

export function canDefer(tx: Queryable): tx is DeferringTx {
  return typeof (tx as Partial<DeferringTx>).defer === 'function';
}

/** Runs a statement now, or on its own at the end of the transaction when the transaction collects them. */
export async function statementOrDefer(tx: Queryable, sql: string, params: readonly unknown[]): Promise<void> {
  if (canDefer(tx)) tx.deferStatement(sql, params);
  else await tx.query(sql, params);
}

/** Runs a write now, or at the end of the transaction when the transaction collects them. */
export async function writeOrDefer(tx: Queryable, sql: string, params: readonly unknown[]): Promise<void> {
  if (canDefer(tx)) tx.defer(sql, params);
  else await tx.query(sql, params);
}

/** Joins data-modifying statements into one (`WITH d0 AS (…), d1 AS (…) SELECT 1`), renumbering parameters. */
export function combineStatements(stmts: readonly Deferred[]): Deferred {
  if (stmts.length === 1) return stmts[0]!;
  const params: unknown[] = [];
  const parts = stmts.map((s, i) => {
    const offset = params.length;
    params.push(...s.params);
    return `d${i} AS (${s.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
  });
  return { sql: `WITH ${parts.join(', ')} SELECT 1`, params };
}

/**
 * Runs a mutation in one transaction. When the request carries an Idempotency-Key, the stored
 * response is written in the same transaction. Never call a slow engine or an outside service
 * inside fn: run it before, write its result here.
 */
export async function withTransaction<T>(
  ctx: RequestContext,
  fn: (tx: DeferringTx) => Promise<T>,
  opts: {
    /** What the route answers, when the verb returns more than that (a wrapper with a created flag): the stored idempotent response must be exactly the answer. */
    response?: (result: T) => unknown;
    /**
     * Runs `fn` again, in a new transaction and with the same Idempotency-Key binding, when the transaction failed
     * with an error this accepts (it rolled back whole): for a write that checks an assumption in the database
     * (a cached read still current) by raising instead of reading an answer back. At most `attempts` runs.
     */
    retry?: { when: (err: unknown) => boolean; attempts: number };
  } = {},
): Promise<T> {
  const idem = ctx.idempotency && !ctx.idempotency.used ? ctx.idempotency : undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(ctx, fn, opts, idem);
    } catch (err) {
      if (!opts.retry || attempt >= opts.retry.attempts || !opts.retry.when(err)) throw err;
    }
  }
}

/**
 * A DeferringTx over an open transaction: the writes deferred on it, and the statements it keeps for the end, are
 * collected; `ending()` gives them in the order they go before COMMIT (its own statements, then the deferred writes
 * combined into one). What the transaction can do beyond plain statements (batches, a statement sent with the next
 * one) passes through.
 */
export function deferringOver(base: Queryable): { tx: DeferringTx; ending: () => Deferred[] } {
  const deferred: Deferred[] = [];
  const own: Deferred[] = [];
  const tx: DeferringTx = {
    query: (sql, params) => base.query(sql, params),
    defer: (sql, params) => void deferred.push({ sql, params }),
    deferStatement: (sql, params) => void own.push({ sql, params }),
  };
  if (canBatch(base)) (tx as DeferringTx & Batching).queryBatch = (stmts) => base.queryBatch(stmts);
  if (canSendWithNext(base))
    (tx as DeferringTx & Pick<CommittingTx, 'sendWithNext'>).sendWithNext = (sql, params, check) => base.sendWithNext(sql, params, check);
  return { tx, ending: () => (deferred.length > 0 ? [...own, combineStatements(deferred)] : own) };
}

/** Statements to go with the transaction's COMMIT, in order (sent before it where the connection cannot hold them). */
export async function sendWithCommit(raw: Queryable, stmts: readonly Statement[]): Promise<void> {
  for (const { sql, params = [] } of stmts) {
    if (canSendWithCommit(raw)) raw.sendWithCommit(sql, params);
    else await raw.query(sql, params);
  }
}

async function once<T>(
  ctx: RequestContext,
  fn: (tx: DeferringTx) => Promise<T>,
  opts: { response?: (result: T) => unknown },
  idem: RequestContext['idempotency'],
): Promise<T> {
  const result = await ctx.db.transaction(async (raw) => {
    const { tx, ending } = deferringOver(raw);
    if (idem) await idem.begin(tx);
    const result = await fn(tx);
    if (idem) await idem.record(tx, opts.response ? opts.response(result) : result);
    await sendWithCommit(raw, ending());
    return result;
  });
  idem?.committed?.();
  return result;
}
