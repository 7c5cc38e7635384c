import type { CommittingTx, Db, Queryable } from '../../src/platform/db.js';

/** What one transaction sent while counting: statements sent on their own (each a round trip) and those held back to travel with the next message. */
export interface SentInTransaction {
  alone: string[];
  held: string[];
}

/**
 * Wraps `db.transaction` so that, while `counting` is on, each transaction opened records what it sends (other work
 * of the app may run beside the request: find the request's transaction by a statement it must contain).
 */
export function countMessages(db: Db): { seen: SentInTransaction[]; during<T>(run: () => Promise<T>): Promise<T> } {
  const seen: SentInTransaction[] = [];
  let counting = false;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (tx: Queryable) => Promise<unknown>) =>
    transaction((raw) => {
      if (!counting) return fn(raw);
      const mine: SentInTransaction = { alone: [], held: [] };
      seen.push(mine);
      const tx = Object.create(raw) as Queryable & { sendWithNext?: CommittingTx['sendWithNext']; queryBatch?: unknown };
      tx.query = ((sql: string, params?: readonly unknown[]) => {
        mine.alone.push(sql);
        return raw.query(sql, params);
      }) as Queryable['query'];
      const batch = (raw as { queryBatch?: (st: { sql: string }[]) => Promise<unknown[][]> }).queryBatch;
      if (batch)
        tx.queryBatch = (st: { sql: string }[]) => {
          mine.alone.push(st.map((x) => x.sql).join('; '));
          return batch.call(raw, st);
        };
      const next = (raw as { sendWithNext?: CommittingTx['sendWithNext'] }).sendWithNext;
      if (next)
        tx.sendWithNext = (sql, p, check) => {
          mine.held.push(sql);
          next.call(raw, sql, p, check);
        };
      return fn(tx);
    })) as typeof db.transaction;
  return {
    seen,
    async during<T>(run: () => Promise<T>): Promise<T> {
      counting = true;
      try {
        return await run();
      } finally {
        counting = false;
      }
    },
  };
}
