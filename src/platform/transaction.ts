import type { Queryable } from './db.js';
import type { RequestContext } from './context.js';

/**
 * Runs a mutation in one transaction. When the request carries an Idempotency-Key, the key is
 * claimed first and the response recorded last, inside the same transaction.
 * Never call a slow engine or an outside service inside fn: run it before, write its result here.
 */
export async function withTransaction<T>(ctx: RequestContext, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const idem = ctx.idempotency && !ctx.idempotency.used ? ctx.idempotency : undefined;
    if (idem) await idem.begin(tx);
    const result = await fn(tx);
    if (idem) await idem.record(tx, result);
    return result;
  });
}
