import type { RequestContext } from './context.js';
import { OpenTx, type Batching, type Db, type Queryable, type Statement } from './db.js';
import { deferringOver, sendWithCommit, withTransaction, type DeferringTx } from './transaction.js';

export interface BatchedWrite<T> {
  ctx: RequestContext;
  fn: (tx: DeferringTx) => Promise<T>;
  /**
   * The keys of the locks the write takes: a batch takes all its members' locks first, in one statement (the batcher's
   * `lockAll`), so two batches (of two processes) can never wait for each other's locks in a cycle. The member may take
   * them again itself (advisory transaction locks stack).
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

  constructor(
    private readonly opts: {
      max: number;
      concurrency: number;
      /** The statement that takes the locks of these keys, in an order every process follows (members' `locks`). */
      lockAll: (keys: readonly string[]) => Statement;
    },
  ) {}

  run<T>(write: BatchedWrite<T>): Promise<T> {
    const idem = write.ctx.idempotency && !write.ctx.idempotency.used;
    if (this.opts.max <= 1 || idem || write.alone) return alone(write);
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
      return alone(m.write).then(m.resolve, m.reject);
    }
    let results: unknown[];
    try {
      const writes = members.map((m) => m.write);
      const locks = writes.flatMap((w) => w.locks ?? []);
      results = await shared(db, writes, locks.length > 0 ? [this.opts.lockAll(locks)] : []);
    } catch {
      // Someone's failure (or a deadlock with another process): each runs again alone, and fails only for its own reasons.
      this.stats.fallbacks++;
      await Promise.all(members.map((m) => alone(m.write).then(m.resolve, m.reject)));
      return;
    }
    this.stats.batches++;
    this.stats.members += members.length;
    this.stats.largest = Math.max(this.stats.largest, members.length);
    members.forEach((m, i) => m.resolve(results[i]));
  }
}

/** A write in a database transaction of its own: exactly withTransaction. */
function alone<T>(w: BatchedWrite<T>): Promise<T> {
  return withTransaction(w.ctx, w.fn, { response: w.response });
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

/**
 * Runs the writes in one database transaction, `lead` (the locks) first; their results in order, or the first failure
 * (all rolled back). Each member has a transaction of its own over the shared connection (OpenTx, as a connection's
 * transaction has; the batch's Multiplexer as its messages) with withTransaction's deferral over it.
 */
async function shared(db: Db, writes: readonly BatchedWrite<unknown>[], lead: Statement[]): Promise<unknown[]> {
  return db.transaction(async (raw) => {
    const mux = new Multiplexer(raw as Queryable & Batching, lead);
    const settled = await Promise.allSettled(
      writes.map(async (w) => {
        const open = new OpenTx((stmts) => mux.send(stmts));
        const { tx, ending } = deferringOver(open.tx);
        const result = await w.fn(tx);
        // Statements still waiting with a check are sent and checked before anything commits (OpenTx.ending).
        return { result, ending: [...(await open.ending()), ...ending()] };
      }),
    );
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const done = settled.map((s) => (s as PromiseFulfilledResult<{ result: unknown; ending: Statement[] }>).value);
    // The rest goes with the COMMIT: the locks (when nothing was sent before), then each member's unchecked waiting
    // statements, its own statements and its deferred writes combined (as withTransaction ends).
    await sendWithCommit(raw, [...mux.lead, ...done.flatMap((d) => d.ending)]);
    return done.map((d) => d.result);
  });
}
