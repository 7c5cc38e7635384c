import type { RequestContext } from './context.js';
import { canSendWithCommit, type Batching, type CommittingTx, type Db, type Queryable, type Statement } from './db.js';
import { combineStatements, withTransaction, type DeferringTx } from './transaction.js';

/** A statement waiting to travel with a member's next message, and what checks its rows (sendWithNext). */
interface Queued extends Statement {
  check?: (rows: unknown[]) => void | Promise<void>;
}

/** What a member's function is handed: withTransaction's transaction, with sendWithNext and queryBatch. */
type MemberTx = DeferringTx & Batching & Pick<CommittingTx, 'sendWithNext'>;

export interface BatchedWrite<T> {
  ctx: RequestContext;
  fn: (tx: DeferringTx) => Promise<T>;
  /**
   * Texts of the advisory transaction locks the write takes (`pg_advisory_xact_lock(hashtextextended(text, 13))`): a
   * batch takes all its members' locks first, in one statement and in the order of their hashes, so two batches (of
   * two processes) can never wait for each other's locks in a cycle. The member may take them again itself (they stack).
   */
  locks?: readonly string[];
  /** As withTransaction's `response`: used when the write runs alone with an Idempotency-Key. */
  response?: (result: NoInfer<T>) => unknown;
  /**
   * Runs at once, alone (withTransaction), without waiting for a batch slot: for a write others wait behind (the
   * caller's key has a queue), whose latency is theirs too. A batch commits when its slowest member is done.
   */
  alone?: boolean;
}

interface Waiting {
  write: BatchedWrite<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** The members' locks, all in one statement, in hash order (the same order in every process). */
const LOCKS_SQL =
  'SELECT count(pg_advisory_xact_lock(h)) AS n FROM (SELECT hashtextextended(k, 13) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS l';

/**
 * Group commit for short write transactions of one kind (a KYT evaluation's write step): writes submitted while
 * `concurrency` batches are in flight wait, and form the next batch together (at most `max`), in one database
 * transaction with one COMMIT. No timer: under light load a write goes at once, alone, as with withTransaction; the
 * batches grow only when writes arrive faster than they commit. Measured (bench/kyt-write-batches.ts): eight writes
 * committed together cost 2.5–2.9× less CPU on both sides than one by one.
 *
 * Each member's function runs as it would inside withTransaction, on a transaction of its own that shares the batch's
 * connection: what the members send in the same turn of the event loop goes to the database as one message (each
 * member's statements in its order), their deferred writes and last statements with the COMMIT. If any member or
 * statement fails, the whole batch rolls back and each member runs again alone (withTransaction), so a member's error
 * is its own and nobody else's write is lost. Members must not depend on each other (the caller's per-key queue keeps
 * two writes of one key out of one batch) and may only use the transaction they are handed.
 *
 * A write with an unused Idempotency-Key runs alone (its stored response belongs to its own transaction), and so does
 * one marked `alone`.
 */
export class WriteBatcher {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Batches of two or more committed, their members, the largest, and batches that failed and ran again member by member (tests, benchmarks). */
  readonly stats = { batches: 0, members: 0, largest: 0, fallbacks: 0 };

  constructor(private readonly opts: { max: number; concurrency: number }) {}

  run<T>(write: BatchedWrite<T>): Promise<T> {
    const idem = write.ctx.idempotency && !write.ctx.idempotency.used;
    if (this.opts.max <= 1 || idem || write.alone) return withTransaction(write.ctx, write.fn, { response: write.response });
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ write: write as BatchedWrite<unknown>, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Starts batches on the event loop's next turn, so writes reaching this in the same turn go together. */
  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0 || this.inFlight >= this.opts.concurrency) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.opts.concurrency && this.waiting.length > 0) {
      // One batch is one database: writes of another Db (another app in the same process) wait for a batch of their own.
      const db = this.waiting[0]!.write.ctx.db;
      const members: Waiting[] = [];
      const rest: Waiting[] = [];
      for (const w of this.waiting) (members.length < this.opts.max && w.write.ctx.db === db ? members : rest).push(w);
      this.waiting = rest;
      this.inFlight++;
      void this.runBatch(db, members).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async runBatch(db: Db, members: Waiting[]): Promise<void> {
    if (members.length === 1) {
      // Alone: exactly withTransaction (the member's statements and round trips as without the batcher).
      const m = members[0]!;
      await withTransaction(m.write.ctx, m.write.fn, { response: m.write.response }).then(m.resolve, m.reject);
      return;
    }
    let results: unknown[];
    try {
      results = await shared(
        db,
        members.map((m) => m.write),
      );
    } catch {
      // Someone's failure (or a deadlock with another process): each runs again alone, and fails only for its own reasons.
      this.stats.fallbacks++;
      await Promise.all(
        members.map((m) => withTransaction(m.write.ctx, m.write.fn, { response: m.write.response }).then(m.resolve, m.reject)),
      );
      return;
    }
    this.stats.batches++;
    this.stats.members += members.length;
    this.stats.largest = Math.max(this.stats.largest, members.length);
    members.forEach((m, i) => m.resolve(results[i]));
  }
}

/** One member's statements on the shared transaction. */
class Member {
  queued: Queued[] = [];
  readonly deferred: { sql: string; params: readonly unknown[] }[] = [];
  readonly own: Statement[] = [];
  constructor(private readonly mux: Multiplexer) {}
  /** The queued statements and `stmts` as part of the batch's next message; the queued ones checked; the rows of `stmts`. */
  async send(stmts: readonly Statement[]): Promise<unknown[][]> {
    const ahead = this.queued;
    this.queued = [];
    if (ahead.length + stmts.length === 0) return [];
    const rows = await this.mux.send([...ahead, ...stmts]);
    for (let i = 0; i < ahead.length; i++) await ahead[i]!.check?.(rows[i]!);
    return rows.slice(ahead.length);
  }
  readonly tx: MemberTx = {
    query: async <R>(sql: string, params: readonly unknown[] = []) => (await this.send([{ sql, params }]))[0] as R[],
    queryBatch: (stmts) => this.send(stmts),
    sendWithNext: (sql, params, check) => void this.queued.push({ sql, params, check }),
    defer: (sql, params) => void this.deferred.push({ sql, params }),
    deferStatement: (sql, params) => void this.own.push({ sql, params }),
  };
}

/**
 * The batch's connection: what the members send before the event loop's next turn leaves as one message (the locks
 * first, in the first one); one message at a time. After a failed message the transaction is aborted and every later
 * send fails with the same error.
 */
class Multiplexer {
  private pending: { stmts: readonly Statement[]; resolve: (rows: unknown[][]) => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;
  private sending = false;
  private failure: { err: unknown } | null = null;
  constructor(
    private readonly raw: Queryable & Batching,
    /** Sent ahead of the first message (the locks); taken by it. */
    public lead: Statement[],
  ) {}

  send(stmts: readonly Statement[]): Promise<unknown[][]> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure.err);
      this.pending.push({ stmts, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.sending || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const groups = this.pending;
    this.pending = [];
    if (this.failure) return groups.forEach((g) => g.reject(this.failure!.err));
    const lead = this.lead;
    this.lead = [];
    this.sending = true;
    let rows: unknown[][];
    try {
      rows = await this.raw.queryBatch([...lead, ...groups.flatMap((g) => g.stmts)]);
    } catch (err) {
      this.sending = false;
      this.failure = { err };
      groups.forEach((g) => g.reject(err));
      return this.schedule(); // what arrived meanwhile fails the same way
    }
    this.sending = false;
    let at = lead.length;
    for (const g of groups) {
      g.resolve(rows.slice(at, at + g.stmts.length));
      at += g.stmts.length;
    }
    this.schedule();
  }
}

/** Runs the writes in one database transaction; their results in order, or the first failure (all rolled back). */
async function shared(db: Db, writes: readonly BatchedWrite<unknown>[]): Promise<unknown[]> {
  return db.transaction(async (raw) => {
    const locks = writes.flatMap((w) => w.locks ?? []);
    const mux = new Multiplexer(raw as Queryable & Batching, locks.length > 0 ? [{ sql: LOCKS_SQL, params: [locks] }] : []);
    const members = writes.map(() => new Member(mux));
    const settled = await Promise.allSettled(
      writes.map(async (w, i) => {
        const m = members[i]!;
        const result = await w.fn(m.tx);
        // Statements still waiting with a check are sent and checked before anything commits.
        if (m.queued.some((q) => q.check)) await m.send([]);
        return result;
      }),
    );
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    // The rest goes with the COMMIT: the locks (when nothing was sent before), then each member's unchecked waiting
    // statements, its own statements and its deferred writes as one combined statement (as withTransaction ends).
    const ending: Statement[] = [...mux.lead];
    for (const m of members) {
      ending.push(...m.queued, ...m.own);
      if (m.deferred.length > 0) ending.push(combineStatements(m.deferred));
    }
    for (const st of ending) {
      if (canSendWithCommit(raw)) raw.sendWithCommit(st.sql, st.params ?? []);
      else await raw.query(st.sql, st.params ?? []);
    }
    return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
  });
}
