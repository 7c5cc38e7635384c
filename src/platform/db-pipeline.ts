import pg from 'pg';
import { preparedLost, type PreparedStatements } from './prepared-statements.js';
import { inlineAll } from './sql-literals.js';

/** One statement and its parameters (as `Statement` in db.ts). */
interface Stmt {
  sql: string;
  params?: readonly unknown[];
}

/** A pipelined connection, its messages in flight and whether a socket write is being gathered for this turn of the event loop. */
interface Conn {
  client: pg.Client;
  corked: boolean;
  /** When each message in flight was sent, oldest first (the server answers in order). */
  sent: number[];
  broken: boolean;
}

/** A message in flight longer than this (waiting on a lock, a long statement) holds up the messages behind it: no more are added. */
export const PIPELINE_STALL_MS = 200;
/**
 * A pipelined connection's lock_timeout: a message waiting longer on a lock is rolled back and sent again on a pool
 * connection, where it may wait as long as it needs without holding up others (and a wait on a transaction that itself
 * waits for a message behind it in the pipeline cannot become a deadlock the server does not see).
 */
export const PIPELINE_LOCK_TIMEOUT_MS = 1_000;
/** Messages longer than this (bulk writes) go on a pool connection: the messages behind one would wait for it. */
export const PIPELINE_MAX_TEXT = 64 * 1024;

/**
 * Transactions that go to the database whole (their statements, nothing read back, their COMMIT: the idempotent,
 * audited writes of most POSTs) share a few connections in pipeline mode instead of taking a pool connection each:
 * a message is sent as soon as it is ready, without waiting for the answers to those before it, and the messages
 * made in the same turn of the event loop leave in one socket write. The server runs them in order.
 *
 * Each message is one implicit transaction: a simple-protocol message of several statements, without BEGIN, is
 * committed at its end, or rolled back whole at its first error, and the connection is then clean for the next
 * message (an explicit BEGIN would leave the next one in an aborted block). What commits is exactly what the
 * BEGIN … COMMIT of the same statements committed.
 *
 * `commit` answers false when the transaction did not run and must be sent on a pool connection as before: no
 * pipelined connection (the server's session is not the connection's own, a pooler: pipelining is then off for
 * good; none free of a stalled message), a long message, a text never tried as a prepared statement, a value that
 * cannot be written in, or a statement prepared on the connection that the server no longer has (a message before it
 * failed before its PREPARE ran; a changed table), or a lock waited for longer than the connection's lock_timeout
 * (PIPELINE_LOCK_TIMEOUT_MS). The message then rolled back whole, so sending it again is safe.
 */
export class Pipeline {
  private readonly conns: (Conn | null)[];
  private opening: Promise<void> | null = null;
  /** Set for good when a connection's server session is not its own (a pooler), or at close. */
  private off = false;
  /** After a connection failed to open, none is opened again before this time (ms). */
  private retryAt = 0;

  constructor(
    private readonly connect: () => pg.Client,
    size: number,
    /** The pool's prepared statements (null: every statement travels as text; it may become null later). */
    private readonly prepared: () => PreparedStatements | null,
    /** The connections' lock_timeout (ms): a message waiting longer on a lock is handed back. */
    private readonly lockTimeoutMs: number = PIPELINE_LOCK_TIMEOUT_MS,
  ) {
    this.conns = Array.from({ length: size }, () => null);
  }

  /** Sends the statements as one transaction; false when it must go the other way (nothing of it ran). Throws its error. */
  async commit(stmts: readonly Stmt[]): Promise<boolean> {
    return (await this.read(stmts)) !== null;
  }

  /**
   * Sends the statements as one message (one implicit transaction, as a batch on a pool connection is) and answers the
   * rows of each; null when they must go the other way (nothing of it ran). Reads through here must be short indexed
   * ones: the messages sent behind a message on its connection wait for it.
   */
  async read(stmts: readonly Stmt[]): Promise<unknown[][] | null> {
    if (this.off || length(stmts) > PIPELINE_MAX_TEXT) return null;
    if (this.conns.some((c) => c === null) && Date.now() >= this.retryAt)
      await (this.opening ??= this.openAll().finally(() => (this.opening = null)));
    const conn = this.pick();
    if (conn === null) return null;
    // From here to the send nothing awaits: messages are composed in the order the connection sends them.
    const prepared = this.prepared();
    let texts: string[] | null;
    let at: number[] | null = null;
    if (prepared !== null) {
      // A text never tried is PREPAREd alone first, which only a connection used by one transaction at a time can do
      // (messages in flight would race for the name): the pool's way, this once.
      if (prepared.untried(stmts).length > 0) return null;
      const msg = prepared.compose(conn.client, stmts);
      texts = msg?.texts ?? null;
      at = msg?.at ?? null;
    } else texts = inlineAll(stmts);
    if (texts === null) return null;
    this.cork(conn);
    conn.sent.push(Date.now());
    let results: pg.QueryResult | pg.QueryResult[];
    try {
      results = await conn.client.query(texts.join(';\n'));
    } catch (err) {
      prepared?.failed(conn.client);
      if (preparedLost(err) !== null || (err as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return null;
      throw err;
    } finally {
      conn.sent.shift();
    }
    const all = resultRows(results);
    return at === null ? all : at.map((i) => all[i]!);
  }

  async close(): Promise<void> {
    this.off = true;
    await this.opening?.catch(() => undefined);
    await Promise.all(this.conns.map((c) => c?.client.end().catch(() => undefined)));
  }

  /** The healthy connection with the fewest messages in flight, none of them stalled; null when there is none. */
  private pick(): Conn | null {
    const now = Date.now();
    let best: Conn | null = null;
    for (const c of this.conns) {
      if (c === null || c.broken || (c.sent.length > 0 && now - c.sent[0]! > PIPELINE_STALL_MS)) continue;
      if (best === null || c.sent.length < best.sent.length) best = c;
    }
    return best;
  }

  /** Opens the connections not open (the first use, or after one broke). */
  private async openAll(): Promise<void> {
    await Promise.all(
      this.conns.map(async (c, i) => {
        if (c === null && !this.off) this.conns[i] = await this.open(i);
      }),
    );
  }

  private async open(i: number): Promise<Conn | null> {
    const client = this.connect();
    const conn: Conn = { client, corked: false, sent: [], broken: false };
    const drop = () => {
      conn.broken = true;
      if (this.conns[i] === conn) this.conns[i] = null;
    };
    client.on('error', drop);
    client.on('end', drop);
    try {
      await client.connect();
      // The session must be the connection's own (BackendKeyData's pid): a pooler hands each message to any session.
      const [row] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      if (row?.pid !== (client as unknown as { processID?: unknown }).processID) this.off = true;
      if (this.off) {
        await client.end().catch(() => undefined);
        return null;
      }
      await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(this.lockTimeoutMs))}`);
      return conn;
    } catch {
      this.retryAt = Date.now() + OPEN_RETRY_MS;
      await client.end().catch(() => undefined);
      return null;
    }
  }

  /** Holds the socket's writes until the end of this turn of the event loop: the messages made in it leave together. */
  private cork(conn: Conn): void {
    if (conn.corked) return;
    const stream = (conn.client as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
    if (!stream?.cork || !stream.uncork) return;
    stream.cork();
    conn.corked = true;
    process.nextTick(() => {
      conn.corked = false;
      stream.uncork!();
    });
  }
}

/** The rows of each statement of a simple-protocol message (one result, or one per statement). */
export function resultRows(r: pg.QueryResult | pg.QueryResult[]): unknown[][] {
  return (Array.isArray(r) ? r : [r]).map((x) => x.rows);
}

/** After a pipelined connection failed to open, transactions go on pool connections this long before another try. */
const OPEN_RETRY_MS = 5_000;

/** lock_timeout reached (or a NOWAIT lock refused: sent again on a pool connection, it is refused there as well). */
const LOCK_NOT_AVAILABLE = '55P03';

/** About how long the message will be: its texts and its values' (bounds the bulk writes out). */
function length(stmts: readonly Stmt[]): number {
  let n = 0;
  for (const st of stmts) {
    n += st.sql.length;
    for (const p of st.params ?? []) n += typeof p === 'string' ? p.length : ArrayBuffer.isView(p) ? p.byteLength * 2 : 16;
  }
  return n;
}
