import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { inlineAll, inlineParams } from './sql-literals.js';
import { PreparedStatements, preparedLost, type Message } from './prepared-statements.js';
import { PgliteThread } from './pglite-thread.js';
import { Pipeline, resultRows } from './db-pipeline.js';
import { PgliteLocal, pgliteOptions, type EmbeddedPg, type EmbeddedStatements, type EmbeddedTransaction } from './pglite-session.js';

export { inlineParams } from './sql-literals.js';

/** Anything that runs SQL: the database itself or an open transaction. Repositories take this. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** One statement and its parameters. */
export interface Statement {
  sql: string;
  params?: readonly unknown[];
}

/**
 * Several statements in one round trip where their values can be written as literals (one simple-protocol
 * message), else one after the other; the rows of each, in order. They run in order and stop at the first
 * error, which is thrown. Outside a transaction they run in one implicit transaction.
 */
export interface Batching {
  queryBatch(stmts: readonly Statement[], opts?: BatchOptions): Promise<unknown[][]>;
}

export interface BatchOptions {
  /**
   * Short indexed reads outside a transaction: on PostgreSQL they may go on a pipelined connection (Pipeline), where
   * the batches of concurrent requests leave in one socket write and need no pool connection. A long read there would
   * hold up the messages behind it: leave this off for anything that scans.
   */
  short?: boolean;
}

export function canBatch(q: Queryable): q is Queryable & Batching {
  return typeof (q as Partial<Batching>).queryBatch === 'function';
}

/** Runs statements as one batch where the connection can, else one after the other. */
export async function queryBatch(q: Queryable, stmts: readonly Statement[], opts?: BatchOptions): Promise<unknown[][]> {
  if (canBatch(q)) return q.queryBatch(stmts, opts);
  const out: unknown[][] = [];
  for (const s of stmts) out.push(await q.query(s.sql, s.params ?? []));
  return out;
}

/**
 * An open transaction that can send a statement together with the next one, and one last write together
 * with its COMMIT (one round trip each instead of two).
 */
export interface CommittingTx extends Queryable, Batching {
  /**
   * Sends the statement with the transaction's last writes and its COMMIT (several calls: in the order
   * called). Nothing may read its result; if it fails, the transaction rolls back and the error is thrown
   * from `Db.transaction` as if the statement had run inside it.
   */
  sendWithCommit(sql: string, params: readonly unknown[]): void;
  /**
   * Sends the statement ahead of the transaction's next one, in the same round trip. `check` receives its
   * rows before the next statement's rows are returned and may throw: the transaction then rolls back (so
   * the next statement, which has run, is undone with it). Statements still waiting at the end go with the
   * COMMIT when none has a check, else they are sent and checked on their own first. An error of a waiting
   * statement rolls the transaction back and is thrown from wherever it was sent.
   */
  sendWithNext(sql: string, params: readonly unknown[], check?: (rows: unknown[]) => void | Promise<void>): void;
}

export function canSendWithCommit(tx: Queryable): tx is CommittingTx {
  return typeof (tx as Partial<CommittingTx>).sendWithCommit === 'function';
}

export function canSendWithNext(tx: Queryable): tx is CommittingTx {
  return typeof (tx as Partial<CommittingTx>).sendWithNext === 'function';
}

/**
 * A write nobody reads back: sent with the transaction's next message where the transaction can hold it back
 * (`sendWithNext`; a failure fails that message and rolls everything back), else now.
 */
export async function writeWithNext(tx: Queryable, sql: string, params: readonly unknown[]): Promise<void> {
  if (canSendWithNext(tx)) tx.sendWithNext(sql, params);
  else await tx.query(sql, params);
}

/**
 * Statements run through this travel with the transaction's next statement (`sendWithNext`); each answer
 * arrives when that one is sent. For reads and locks whose results are needed only after a later statement
 * (call `flushWithNext` when no such statement may follow). Without the capability, statements run at once.
 */
export function withNext(tx: Queryable): Queryable {
  if (!canSendWithNext(tx)) return tx;
  return {
    query: <R>(sql: string, params: readonly unknown[] = []) =>
      new Promise<R[]>((resolve) => tx.sendWithNext(sql, params, (rows) => resolve(rows as R[]))),
  };
}

/** Sends the statements waiting to travel with the next one now. */
export async function flushWithNext(tx: Queryable): Promise<void> {
  if (canSendWithNext(tx)) await tx.queryBatch([]);
}

/**
 * A reader that gathers the statements issued before the event loop's next turn (independent reads started
 * together, as by Promise.all) and sends them as one batch: one round trip and one pool connection instead
 * of one each. Only for reads that do not depend on each other; an error fails every read of its batch.
 */
export function batchingReader(db: Queryable, opts?: BatchOptions): Queryable {
  if (!canBatch(db)) return db;
  let pending: { st: Statement; resolve: (rows: unknown[]) => void; reject: (err: unknown) => void }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    db.queryBatch(
      batch.map((p) => p.st),
      opts,
    ).then(
      (rows) => batch.forEach((p, i) => p.resolve(rows[i]!)),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  };
  return {
    query: <R>(sql: string, params: readonly unknown[] = []) =>
      new Promise<R[]>((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ st: { sql, params }, resolve: resolve as (rows: unknown[]) => void, reject });
      }),
  };
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn in one transaction; commits if it resolves, rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Whether the pgvector extension can be used on this database. */
  readonly hasVector: boolean;
  close(): Promise<void>;
}

// int8 and numeric come back as strings from node-postgres; we only store counts and amounts
// that fit a double, and PGlite already returns numbers, so both drivers agree on numbers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  hasVector = false;
  constructor(
    private readonly pool: pg.Pool,
    /** Statements prepared once per connection (null: every statement travels as text; set to null for good when a pooler is found). */
    private prepared: PreparedStatements | null = null,
    /** Told once when prepared statements are switched off because the server's sessions are shared (a pooler). */
    private readonly warn: (message: string) => void = () => undefined,
    /** How to open a pipelined connection, and how many (Pipeline); absent: none. */
    pipelined?: { connect: () => pg.Client; size: number },
  ) {
    this.pipeline = pipelined && pipelined.size > 0 ? new Pipeline(pipelined.connect, pipelined.size, () => this.prepared) : null;
  }
  /** Connections in pipeline mode for transactions sent whole (null: none). */
  private readonly pipeline: Pipeline | null;
  /** Whether statements are prepared (false from the start, or since a pooler was found). */
  get preparing(): boolean {
    return this.prepared !== null;
  }
  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const r = await this.pool.query(sql, params as unknown[]);
    return r.rows as T[];
  }
  async queryBatch(stmts: readonly Statement[], opts?: BatchOptions): Promise<unknown[][]> {
    if (opts?.short && this.pipeline !== null && stmts.length > 0) {
      const rows = await this.pipeline.read(stmts);
      if (rows !== null) return rows;
    }
    if (stmts.length === 1 && this.prepared === null) return [await this.query(stmts[0]!.sql, stmts[0]!.params)];
    if (this.prepared === null) {
      const inlined = inlineAll(stmts);
      if (inlined !== null) return resultRows(await this.pool.query(inlined.join(';\n')));
    }
    const client = await this.pool.connect();
    try {
      // Without prepared statements the literal text was tried above: here the statements go one by one.
      // A message of several statements outside BEGIN is one implicit transaction: a failure undid all of it.
      const sent = this.prepared === null ? null : await this.sendMessage(client, stmts, [], [], true);
      if (sent !== null) {
        await this.probe(client, sent.probe);
        return sent.rows;
      }
      const out: unknown[][] = [];
      for (const st of stmts) out.push((await client.query(st.sql, (st.params ?? []) as unknown[])).rows);
      return out;
    } finally {
      client.release();
    }
  }
  /** The statements as one simple-protocol message on this connection (prepared where they may be), or null when a value cannot be written in. */
  private message(client: pg.PoolClient, stmts: readonly Statement[]): Message | null {
    if (this.prepared !== null) return this.prepared.compose(client, stmts);
    const texts = inlineAll(stmts);
    return texts === null ? null : { texts, at: texts.map((_, i) => i), probe: [], prepared: false };
  }
  /**
   * Sends the texts as one message; the rows of each. If it fails, the statements before the failing one have
   * run, and PREPARE and DEALLOCATE are not undone by a rollback: the connection's prepared set is forgotten.
   */
  private async run(client: pg.PoolClient, texts: readonly string[]): Promise<unknown[][]> {
    if (texts.length === 0) return [];
    try {
      return resultRows(await client.query(texts.join(';\n')));
    } catch (err) {
      this.prepared?.failed(client);
      throw err;
    }
  }
  /**
   * Composes `stmts` into one message between `head` and `tail` and sends it: the rows of each of `stmts` and the
   * texts to probe, or null when a value cannot be written in. If the message fails because the server's prepared
   * statements are not the ones this connection prepared (preparedLost) and nothing of the transaction ran before it
   * (`fresh`: the failure undid the whole transaction), it is sent once more: as text when a pooler was the cause,
   * prepared afresh after a changed table.
   */
  private async sendMessage(
    client: pg.PoolClient,
    stmts: readonly Statement[],
    head: readonly string[],
    tail: readonly string[],
    fresh: boolean,
  ): Promise<{ rows: unknown[][]; probe: string[] } | null> {
    if (this.prepared !== null && !this.ownSessions.has(client)) await this.checkOwnSession(client);
    // Texts never tried, at the start of a transaction or batch: PREPAREd alone first, so that their first
    // execution is prepared too (as literal text it is planned for its values, outside the transaction's generic
    // plans: KYT's aggregate read then took 20–84 ms instead of under 1 ms, docs/performance.md).
    if (fresh && this.prepared !== null) await this.probe(client, this.prepared.untried(stmts));
    for (let attempt = 0; ; attempt++) {
      const msg = this.message(client, stmts);
      if (msg === null) return null;
      try {
        const results = await this.run(client, [...head, ...msg.texts, ...tail]);
        return { rows: msg.at.map((i) => results[head.length + i]!), probe: msg.probe };
      } catch (err) {
        const lost = msg.prepared ? preparedLost(err) : null;
        if (lost === 'pooler') this.switchOff(err);
        if (lost === null || !fresh || attempt > 0) throw err;
        if (head[0] === 'BEGIN') await client.query('ROLLBACK');
      }
    }
  }
  /** Connections whose server session was found to be their own (checkOwnSession). */
  private readonly ownSessions = new WeakSet<pg.PoolClient>();
  /**
   * Once per connection, before anything is prepared on it: whether the server session it talks to is the one it
   * opened. PostgreSQL announces its backend's pid when a connection starts (BackendKeyData); a pooler announces
   * its own key, and hands the connection's transactions to whichever of its server sessions is free, where SQL
   * PREPARE does not last. If the pids differ, prepared statements are switched off before any is made.
   */
  private async checkOwnSession(client: pg.PoolClient): Promise<void> {
    const announced = (client as unknown as { processID?: unknown }).processID;
    const [row] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    if (row !== undefined && row.pid === announced) this.ownSessions.add(client);
    else this.switchOff(`the connection announced backend ${String(announced)} but runs on backend ${String(row?.pid)}`);
  }
  /** PREPAREs the texts seen for the first time (outside a transaction); a name the server already had means a pooler. */
  private async probe(client: pg.PoolClient, texts: readonly string[]): Promise<void> {
    if (texts.length === 0 || this.prepared === null) return;
    const shared = await this.prepared.probe(client, texts);
    if (shared !== null) this.switchOff(shared);
  }
  /**
   * Prepared statements off for the rest of the process: the server's sessions are not this pool's connections (a
   * pooler in transaction or statement mode hands each transaction whichever server session is free), so SQL-level
   * PREPARE cannot be relied on. Messages already composed with it that fail are sent again as text where they can be.
   */
  private switchOff(cause: unknown): void {
    if (this.prepared === null) return;
    this.prepared = null;
    const reason = cause instanceof Error ? cause.message : String(cause);
    this.warn(
      `prepared statements switched off: the server does not keep what this connection prepared (${reason}); ` +
        'a pooler in transaction or statement mode does this. Set DATABASE_PREPARED_STATEMENTS=false to silence this.',
    );
  }
  /**
   * node-postgres sends one statement and waits for its answer before the next (no pipelining), so a
   * transaction of n statements costs n + 2 round trips. Where nothing is read in between, statements
   * go together as one simple-protocol message with their parameters written in as literals: BEGIN
   * and the statements queued with `sendWithNext` with the transaction's next statement or batch, the
   * last write (`sendWithCommit`) with COMMIT. With prepared statements on, a statement in such a
   * message is `EXECUTE` of its prepared form (PreparedStatements).
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    // A pool connection is taken at the first statement sent: a transaction sent whole with its COMMIT needs none.
    const held: { client: pg.PoolClient | null } = { client: null };
    const connect = async (): Promise<pg.PoolClient> => (held.client ??= await this.pool.connect());
    let begun = false;
    const probe: string[] = [];
    /** One message: BEGIN (the first time) and `stmts`, their rows; each statement on its own where they cannot go as one. */
    const open = new OpenTx(async (stmts) => {
      const fresh = !begun;
      const head = begun ? [] : ['BEGIN'];
      const client = await connect();
      begun = true;
      const sent = await this.sendMessage(client, stmts, head, [], fresh);
      if (sent !== null) {
        probe.push(...sent.probe);
        return sent.rows;
      }
      if (head.length) await client.query('BEGIN');
      const out: unknown[][] = [];
      for (const st of stmts) out.push((await client.query(st.sql, (st.params ?? []) as unknown[])).rows);
      return out;
    });
    try {
      const result = await fn(open.tx);
      const ending = await open.ending();
      if (!begun && ending.length === 0) return result; // nothing was sent: nothing to commit
      // The whole transaction is this one message: sent on a pipelined connection (Pipeline) where there is one.
      if (!begun && this.pipeline !== null && (await this.pipeline.commit(ending))) return result;
      const fresh = !begun;
      const client = await connect();
      const head = begun ? [] : ['BEGIN'];
      // Begun from here on: if a statement of this message fails, the server has opened the transaction
      // and aborted it, and the connection must see a ROLLBACK before it goes back to the pool.
      begun = true;
      const sent = await this.sendMessage(client, ending, head, ['COMMIT'], fresh);
      if (sent !== null) {
        probe.push(...sent.probe);
      } else {
        if (fresh) await client.query('BEGIN');
        for (const st of ending) await client.query(st.sql, (st.params ?? []) as unknown[]);
        await client.query('COMMIT');
      }
      // Outside the transaction now: texts seen for the first time are tried as prepared statements.
      await this.probe(client, probe);
      return result;
    } catch (err) {
      if (begun) await held.client?.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      held.client?.release();
    }
  }
  private closing: Promise<void> | null = null;
  /** Idempotent: a second close waits for the first. */
  close(): Promise<void> {
    this.closing ??= Promise.all([this.pool.end(), this.pipeline?.close()]).then(() => undefined);
    return this.closing;
  }
}

/** A statement waiting to travel with a transaction's next one, and what checks its rows. */
interface Queued extends Statement {
  check?: (rows: unknown[]) => void | Promise<void>;
}

/**
 * The open transaction both drivers hand to a transaction's function, and each member of a write batch has over the
 * batch's shared one (write-batch.ts) (CommittingTx): statements queued to travel with
 * its next message, checked when their rows come back (`sendWithNext`), and last writes kept for the COMMIT
 * (`sendWithCommit`). `message` sends statements as one of the transaction's messages and returns their rows.
 */
export class OpenTx {
  private queued: Queued[] = [];
  private readonly last: Statement[] = [];
  constructor(private readonly message: (stmts: readonly Statement[]) => Promise<unknown[][]>) {}
  /** The queued statements and `stmts` as one message; the queued ones checked; the rows of `stmts`. */
  private async send(stmts: readonly Statement[]): Promise<unknown[][]> {
    const ahead = this.queued;
    this.queued = [];
    if (ahead.length + stmts.length === 0) return [];
    const rows = await this.message([...ahead, ...stmts]);
    for (let i = 0; i < ahead.length; i++) await ahead[i]!.check?.(rows[i]!);
    return rows.slice(ahead.length);
  }
  readonly tx: CommittingTx = {
    query: async <R>(sql: string, params: readonly unknown[] = []) => (await this.send([{ sql, params }]))[0] as R[],
    queryBatch: (stmts) => this.send(stmts),
    sendWithCommit: (sql, params) => void this.last.push({ sql, params }),
    sendWithNext: (sql, params, check) => void this.queued.push({ sql, params, check }),
  };
  /**
   * Once the function has returned: statements still queued with a check are sent and checked before anything
   * commits; what is left (unchecked queued statements, then the last writes) is to go with the COMMIT.
   */
  async ending(): Promise<Statement[]> {
    if (this.queued.some((q) => q.check)) await this.send([]);
    const ending: Statement[] = [...this.queued, ...this.last];
    this.queued = [];
    return ending;
  }
}

/**
 * PGlite runs a query with parameters as four messages into the database (parse, describe, bind and
 * execute, sync) and the one without as one: statements whose values can be written as literals go
 * the short way (about a third of the time per statement measured on PGlite; same result types, as
 * both are parsed by the same type parsers).
 */
async function runOnPglite<R>(t: EmbeddedStatements, sql: string, params: readonly unknown[]): Promise<R[]> {
  const inlined = inlineParams(sql, params);
  if (inlined === null) return (await t.query<R>(sql, params as unknown[])).rows;
  const results = await t.exec(inlined);
  return (results[results.length - 1]?.rows ?? []) as R[];
}

/** Statements on PGlite: one `exec` (one message into the database) when every value can be written in, else one by one. */
async function batchOnPglite(t: EmbeddedStatements, stmts: readonly Statement[]): Promise<unknown[][]> {
  const inlined = stmts.length > 1 ? inlineAll(stmts) : null;
  if (inlined !== null) return (await t.exec(inlined.join(';\n'))).map((r) => r.rows);
  const out: unknown[][] = [];
  for (const st of stmts) out.push(await runOnPglite(t, st.sql, st.params ?? []));
  return out;
}

/** A transaction's last statements on PGlite: with the COMMIT in one message when every value can be written in. */
async function endOnPglite(t: EmbeddedTransaction, stmts: readonly Statement[]): Promise<void> {
  const inlined = inlineAll(stmts);
  if (inlined !== null) await t.execAndCommit(inlined.join(';\n'));
  else await batchOnPglite(t, stmts);
}

/** Whether a text of a composed message changes what the session has prepared (PreparedStatements.compose). */
const changesPrepared = (text: string): boolean => text.startsWith('PREPARE ') || text.startsWith('DEALLOCATE');

/** Whether a statement has values (only those may be prepared; a text without any goes as it is, several statements or a VACUUM alike). */
const hasValues = (st: Statement): boolean => (st.params?.length ?? 0) > 0;

class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  hasVector = false;
  constructor(
    private readonly pglite: EmbeddedPg,
    /**
     * Statements prepared once in the embedded database's one session (null: every statement travels as text,
     * parsed, analysed and planned at every execution). One session serves every request; no pooler can stand between.
     */
    private readonly prepared: PreparedStatements | null = null,
  ) {}
  /**
   * The embedded session as PreparedStatements sees it (the key of what it has prepared) and how it PREPAREs a text
   * alone: one message with the session held, so no message composed meanwhile runs in between.
   */
  private readonly session = { query: (sql: string) => this.pglite.exec(sql) };
  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.prepared === null || params.length === 0) return runOnPglite<T>(this.pglite, sql, params);
    return ((await this.queryBatch([{ sql, params }]))[0] ?? []) as T[];
  }
  /**
   * With prepared statements, the message is composed and sent with the session held (one message is one implicit
   * transaction), so what it EXECUTEs is what the session has prepared when it runs. Statements without values are
   * never prepared and go as before.
   */
  async queryBatch(stmts: readonly Statement[]): Promise<unknown[][]> {
    if (this.prepared === null || !stmts.some(hasValues)) return batchOnPglite(this.pglite, stmts);
    return (await this.oneMessage(stmts)) ?? this.pglite.exclusive((t) => batchOnPglite(t, stmts));
  }
  /**
   * The statements as one message, one implicit transaction (a read batch; a transaction sent whole: committed at the
   * message's end, rolled back whole at its first error), prepared where they may be: the rows of each, or null when
   * a value cannot be written in (nothing sent). Where the database runs messages in order (its own thread), the
   * session is passed on as soon as the message has left, unless it changes what the session has prepared
   * (EmbeddedPg.execWhole).
   */
  private async oneMessage(stmts: readonly Statement[]): Promise<unknown[][] | null> {
    const prepared = this.prepared;
    if (prepared === null || !stmts.some(hasValues)) {
      const inlined = inlineAll(stmts);
      if (inlined === null) return null;
      const results = await this.pglite.execWhole(
        () => ({ sql: inlined.join(';\n'), detached: true }),
        () => undefined,
      );
      return results!.map((r) => r.rows);
    }
    // Texts never tried are PREPAREd alone first, so that even their first execution is prepared.
    await prepared.probe(this.session, prepared.untried(stmts));
    const probe: string[] = [];
    // A message that PREPAREd or DEALLOCATEd may have done so in part: what the session has prepared is no longer
    // known (told with the session still held). One that only EXECUTEd changed nothing, unless a statement changed
    // under it (a migration), which must then be prepared afresh.
    const failed = () => prepared.failed(this.session);
    const once = async (): Promise<unknown[][] | null> => {
      let at: number[] = [];
      const results = await this.pglite
        .execWhole(() => {
          const msg = prepared.compose(this.session, stmts);
          if (msg === null) return null;
          at = msg.at;
          probe.push(...msg.probe);
          return { sql: msg.texts.join(';\n'), detached: !msg.texts.some(changesPrepared) };
        }, failed)
        .catch((err: unknown) => {
          if (preparedLost(err) !== null) failed();
          throw err;
        });
      return results === null ? null : at.map((i) => results[i]?.rows ?? []);
    };
    // A table changed under a prepared statement (a migration): the failure undid the message; prepared afresh.
    const rows = await once().catch((err: unknown) => (preparedLost(err) === 'changed' ? once() : Promise.reject(err)));
    if (probe.length > 0) await prepared.probe(this.session, probe);
    return rows;
  }
  /**
   * With the session held: the statements as one message into the database, each prepared where it may be (EXECUTE
   * of its prepared form; PreparedStatements), or null when a value cannot be written in. Given `ending` (the
   * transaction's), the COMMIT travels in the same message and no rows come back. Texts seen for the first time go
   * as text and are added to `probe`, to PREPARE once the session is free. If the message fails, what the session
   * has prepared is no longer known.
   */
  private async sendPrepared(
    t: EmbeddedStatements,
    stmts: readonly Statement[],
    probe: string[],
    ending: EmbeddedTransaction | null,
  ): Promise<unknown[][] | null> {
    const prepared = this.prepared!;
    const msg = prepared.compose(this.session, stmts);
    if (msg === null) return null;
    const text = msg.texts.join(';\n');
    let results: { rows: unknown[] }[] = [];
    try {
      if (ending !== null) await ending.execAndCommit(text);
      else if (text !== '') results = await t.exec(text);
    } catch (err) {
      prepared.failed(this.session);
      throw err;
    }
    probe.push(...msg.probe);
    return msg.at.map((i) => results[i]?.rows ?? []);
  }
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const probe: string[] = [];
    /** The statements of a transaction that sent nothing before its end: sent whole once the session is free again. */
    let whole: Statement[] | null = null;
    const result = await this.pglite.transaction(async (t) => {
      let sent = false;
      /** The statements as one message (the transaction's last, with the COMMIT, when `end`), prepared where they may be. */
      const run = async (stmts: readonly Statement[], end = false): Promise<unknown[][]> => {
        const fresh = !sent;
        sent = true;
        const attempt = async (): Promise<unknown[][]> => {
          if (this.prepared !== null && stmts.some(hasValues)) {
            const rows = await this.sendPrepared(t, stmts, probe, end ? t : null);
            if (rows !== null) return rows;
          }
          if (!end) return batchOnPglite(t, stmts);
          await endOnPglite(t, stmts);
          return [];
        };
        try {
          return await attempt();
        } catch (err) {
          // A table changed under a prepared statement (a migration) in the transaction's first message: nothing of
          // the transaction has run, so it starts again and the message is sent once more, prepared afresh.
          if (!fresh || preparedLost(err) !== 'changed') throw err;
          await t.exec('ROLLBACK; BEGIN');
          return attempt();
        }
      };
      const open = new OpenTx((stmts) => run(stmts));
      const result = await fn(open.tx);
      const ending = await open.ending();
      // The last writes and the COMMIT go as one message. A transaction that sent nothing before is that message
      // alone, an implicit transaction: nothing was opened here, so it goes once the session is free (below).
      if (ending.length > 0 && !sent) whole = ending;
      else if (ending.length > 0) await run(ending, true);
      return result;
    });
    // Sent whole (as on PostgreSQL's pipelined connections); a value that cannot be written in: BEGIN … COMMIT around them.
    if (whole !== null && (await this.oneMessage(whole)) === null) await this.pglite.transaction((t) => endOnPglite(t, whole!));
    // Outside the transaction now: texts seen for the first time are tried as prepared statements.
    if (this.prepared !== null && probe.length > 0) await this.prepared.probe(this.session, probe);
    return result;
  }
  private closing: Promise<void> | null = null;
  close(): Promise<void> {
    this.closing ??= this.pglite.close();
    return this.closing;
  }
}

export interface OpenDbOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  databaseUrl?: string | null;
  /** Directory for PGlite's files; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /**
   * How many statements each pooled connection (on PGlite: its one session) keeps prepared (PreparedStatements); 0
   * or absent: none, every statement travels as text.
   */
  preparedPerConnection?: number;
  /**
   * Told (once per pool) when prepared statements are switched off because a pooler shares the server's sessions,
   * and once per statement text that cannot run prepared (PreparedStatements).
   */
  warn?: (message: string) => void;
  /** PostgreSQL only: connections in pipeline mode for transactions sent whole in one message (Pipeline); 0 or absent: none. */
  pipelineConnections?: number;
  /**
   * PGlite only: run the embedded database on a worker thread of its own (PgliteThread), beside the event loop, with
   * transactions sent whole and reads passed on without waiting for their answers (EmbeddedPg.ordered). The service
   * does by default (DATABASE_EMBEDDED_THREAD; docs/performance.md, round 19); absent here: the calling thread
   * (scripts and benchmarks that open a database of their own).
   */
  embeddedThread?: boolean;
  /**
   * PGlite in memory only: start from this image of a data directory (PGlite's `dumpDataDir`, e.g. from
   * `migratedEmbeddedImage`) instead of an empty cluster; PGlite then skips initdb (about 0.6 s instead of 2–3.5 s
   * here). The test suite opens each file's database this way.
   */
  embeddedImage?: Uint8Array;
}

export async function openDb(opts: OpenDbOptions): Promise<Db> {
  if (opts.databaseUrl) {
    const connectionString = withUser(opts.databaseUrl);
    const pool = new pg.Pool({
      // An explicit user avoids a slow default lookup on every new connection (see shared/DEPENDENCIES.md).
      connectionString,
      max: opts.poolSize ?? 20,
      idleTimeoutMillis: 30_000,
    });
    pool.on('error', () => undefined); // idle-client errors surface on the next query instead of crashing
    const per = opts.preparedPerConnection ?? 0;
    const pipelined = {
      connect: () => new pg.Client({ connectionString, pipeline: true } as pg.ClientConfig),
      size: opts.pipelineConnections ?? 0,
    };
    const db = new PostgresDb(pool, per > 0 ? new PreparedStatements(per, opts.warn) : null, opts.warn, pipelined);
    db.hasVector = await detectVector(db);
    return db;
  }
  const dir = opts.dataDir ?? 'memory://';
  const inMemory = dir.startsWith('memory://');
  if (opts.embeddedImage && !inMemory) throw new Error('embeddedImage starts an in-memory database only (dataDir memory://)');
  if (!inMemory) mkdirSync(dir, { recursive: true });
  const image = opts.embeddedImage ?? null;
  const pglite =
    (opts.embeddedThread ?? false)
      ? await PgliteThread.open(inMemory ? null : dir, image)
      : new PgliteLocal(await PGlite.create(inMemory ? undefined : dir, pgliteOptions(image)));
  const per = opts.preparedPerConnection ?? 0;
  const db = new PgliteDb(pglite, per > 0 ? new PreparedStatements(per, opts.warn) : null);
  db.hasVector = await detectVector(db);
  return db;
}

/**
 * An in-memory database with every migration applied, as the image of its data directory (`openDb`'s
 * `embeddedImage`): the test suite makes it once per set of migrations and starts each file's database from it.
 */
export async function migratedEmbeddedImage(): Promise<Uint8Array> {
  const pglite = await PGlite.create(undefined, pgliteOptions(null));
  const db = new PgliteDb(new PgliteLocal(pglite), null);
  try {
    db.hasVector = await detectVector(db);
    await migrate(db);
    return new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await db.close();
  }
}

/**
 * The URL with its user filled in: the URL's, else PGUSER, else the OS user, as libpq does.
 * node-postgres lets a connection string's empty user override an explicit `user` option.
 */
export function withUser(databaseUrl: string): string {
  const u = new URL(databaseUrl);
  if (!u.username) u.username = encodeURIComponent(process.env.PGUSER || process.env.USER || userInfo().username);
  return u.toString();
}

async function detectVector(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ ok: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS ok");
  return rows[0]?.ok === true;
}

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
const MIGRATION_LOCK = 7_312_001;

/** Applies pending migrations in order, each in its own transaction; safe when several processes start at once. */
export async function migrate(db: Db, log: (msg: string) => void = () => undefined): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    for (const file of files) {
      const version = file.replace(/\.sql$/, '');
      if (done.has(version)) continue;
      let sql = readFileSync(MIGRATIONS_DIR + file, 'utf8');
      if (sql.includes('-- requires: vector') && !db.hasVector) sql = sql.replace(/-- vector:begin[\s\S]*?-- vector:end/g, '');
      for (const stmt of splitSql(sql)) await tx.query(stmt);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      applied.push(version);
      log(`applied migration ${version}`);
    }
  });
  return applied;
}

/** Splits a migration file on semicolons that end a statement (outside quotes and $$ bodies). */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inDollar = false;
  let inQuote = false;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (!inQuote && sql.startsWith('$$', i)) {
      inDollar = !inDollar;
      cur += '$$';
      i++;
      continue;
    }
    if (!inDollar && ch === "'") inQuote = !inQuote;
    if (!inDollar && !inQuote && ch === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl === -1 ? sql.length : nl;
      cur += '\n';
      continue;
    }
    if (ch === ';' && !inDollar && !inQuote) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
