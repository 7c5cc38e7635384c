import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

/** PGlite's options as Verity opens it: pgvector, and a data directory's image to start from when one is given. */
export function pgliteOptions(image: Uint8Array | null): PGliteOptions {
  return { extensions: { vector }, ...(image ? { loadDataDir: new Blob([image]) } : {}) };
}

/**
 * PGlite's one session, held by one caller at a time: the embedded database as PgliteDb uses it, whether PGlite runs
 * on the calling thread (PgliteLocal) or on a thread of its own (PgliteThread). A transaction's BEGIN travels in the
 * same message as its first statements and its COMMIT in the same message as its last, where PGlite's own
 * `transaction` sends each alone: every message into PGlite is a query and a sync run through the WebAssembly
 * server loop, about 30–80 µs each (docs/performance.md, round 12).
 */

/** One message into the database; `begin` opens a transaction just before it, `commit` ends it just after. */
export type EmbeddedRequest =
  | { op: 'query'; sql: string; params: readonly unknown[]; begin?: boolean }
  | { op: 'exec'; sql: string; begin?: boolean; commit?: boolean }
  | { op: 'close' };

/** Statements sent while the session is held. */
export interface EmbeddedStatements {
  /** One statement with values as parameters (extended protocol). */
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  /** Statements as one text, one message (simple protocol): the rows of each. */
  exec(sql: string): Promise<{ rows: unknown[] }[]>;
}

/** In a transaction: the last statements and the COMMIT as one message (the transaction's end). */
export interface EmbeddedTransaction extends EmbeddedStatements {
  execAndCommit(sql: string): Promise<void>;
}

/** What PgliteDb needs of the embedded database. */
export interface EmbeddedPg extends EmbeddedStatements {
  /**
   * Whether messages run in the order they are sent, whoever sends them (PGlite on its own thread answers its
   * messages one at a time in arrival order): a message that leaves the session as it found it may then be sent and
   * the session passed on without waiting for the answer (`execWhole`).
   */
  readonly ordered: boolean;
  /**
   * Composes a message with the session held and sends it as one implicit transaction: the rows of each statement,
   * or null when `compose` answers null (nothing sent). Where `ordered` and the composed message is `detached` (it
   * leaves the session's state as it found it whether it succeeds or fails: no PREPARE, no DEALLOCATE), the session is
   * passed on as soon as it has left; otherwise a failure calls `failed` with the session still held, before it is
   * passed on.
   */
  execWhole(compose: () => { sql: string; detached: boolean } | null, failed: () => void): Promise<{ rows: unknown[] }[] | null>;
  /** Holds the session for `fn`, in one transaction: BEGIN with its first message, COMMIT (ROLLBACK if `fn` throws) after. */
  transaction<T>(fn: (t: EmbeddedTransaction) => Promise<T>): Promise<T>;
  /** Holds the session for `fn` without opening a transaction: each message is one implicit transaction. */
  exclusive<T>(fn: (t: EmbeddedStatements) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Answers one request on PGlite (on whichever thread holds it): rows of a query, rows of each statement of an exec. */
export async function runRequest(pglite: PGlite, m: EmbeddedRequest): Promise<unknown> {
  if (m.op === 'close') {
    await pglite.close();
    return null;
  }
  if (m.op === 'query') {
    if (m.begin) await pglite.exec('BEGIN');
    return (await pglite.query(m.sql, m.params as unknown[])).rows;
  }
  const results = await pglite.exec(`${m.begin ? 'BEGIN;\n' : ''}${m.sql}${m.commit ? ';\nCOMMIT' : ''}`);
  return results.slice(m.begin ? 1 : 0, m.commit ? -1 : undefined).map((r) => r.rows);
}

/**
 * The session held by one caller at a time: a promise chain on this side, so every statement and transaction waits
 * for the ones before it; `send` carries one request to PGlite.
 */
export abstract class SerialEmbeddedPg implements EmbeddedPg {
  abstract readonly ordered: boolean;
  private tail: Promise<unknown> = Promise.resolve();
  protected abstract send<T>(req: EmbeddedRequest): Promise<T>;
  abstract close(): Promise<void>;

  /** Runs `fn` when every earlier statement or transaction has finished; later ones wait for it. */
  protected serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private statements(begin: () => boolean): EmbeddedStatements {
    return {
      query: async <R>(sql: string, params: unknown[] = []) => ({
        rows: await this.send<R[]>({ op: 'query', sql, params, begin: begin() }),
      }),
      exec: async (sql: string) => (await this.send<unknown[][]>({ op: 'exec', sql, begin: begin() })).map((rows) => ({ rows })),
    };
  }

  query<R>(sql: string, params: unknown[] = []): Promise<{ rows: R[] }> {
    return this.exclusive((t) => t.query<R>(sql, params));
  }

  exec(sql: string): Promise<{ rows: unknown[] }[]> {
    return this.exclusive((t) => t.exec(sql));
  }

  exclusive<T>(fn: (t: EmbeddedStatements) => Promise<T>): Promise<T> {
    return this.serial(() => fn(this.statements(() => false)));
  }

  async execWhole(compose: () => { sql: string; detached: boolean } | null, failed: () => void): Promise<{ rows: unknown[] }[] | null> {
    const sent: { reply?: Promise<unknown[][]> } = {};
    await this.serial(async () => {
      const m = compose();
      if (m === null) return;
      const reply = (sent.reply = this.send<unknown[][]>({ op: 'exec', sql: m.sql }));
      if (this.ordered && m.detached) return void reply.catch(() => undefined); // answered below, the session passed on now
      await reply.catch((err: unknown) => {
        failed();
        throw err;
      });
    });
    return sent.reply === undefined ? null : (await sent.reply).map((rows) => ({ rows }));
  }

  transaction<T>(fn: (t: EmbeddedTransaction) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      let begun = false;
      let ended = false;
      const first = () => {
        const b = !begun;
        begun = true;
        return b;
      };
      const t: EmbeddedTransaction = {
        ...this.statements(first),
        execAndCommit: async (sql: string) => {
          if (ended) throw new Error('the transaction has already ended');
          await this.send({ op: 'exec', sql, begin: first(), commit: true });
          // Only once it has run: a failed message leaves the transaction open (aborted) for ROLLBACK, or a retry.
          ended = true;
        },
      };
      try {
        const result = await fn(t);
        if (begun && !ended) await this.send({ op: 'exec', sql: 'COMMIT' });
        return result;
      } catch (err) {
        // A failed COMMIT has already ended the transaction (PostgreSQL rolls it back); ROLLBACK then only warns.
        if (begun) await this.send({ op: 'exec', sql: 'ROLLBACK' }).catch(() => undefined);
        throw err;
      }
    });
  }
}

/** PGlite on the calling thread, its session held as SerialEmbeddedPg holds it. */
export class PgliteLocal extends SerialEmbeddedPg {
  /** PGlite's calls on this thread are not promised to run in the order they are made: every message waits for its answer. */
  readonly ordered = false;
  constructor(private readonly pglite: PGlite) {
    super();
  }
  protected send<T>(req: EmbeddedRequest): Promise<T> {
    return runRequest(this.pglite, req) as Promise<T>;
  }
  close(): Promise<void> {
    return this.serial(() => this.pglite.close());
  }
}
