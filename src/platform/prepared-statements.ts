import { createHash } from 'node:crypto';
import { BoundedMap } from './bounded-map.js';
import { scalarsOnly, sqlLiterals, sqlTemplate, type SqlTemplate } from './sql-literals.js';

/** One statement and its parameters (as `Statement` in db.ts). */
interface Stmt {
  sql: string;
  params?: readonly unknown[];
}

/** A statement text's name on the server, and whether the server can infer its parameters' types (null: not tried yet). */
interface Known {
  name: string;
  ok: boolean | null;
}

/** How long a statement text may be in a warning (its opening identifies it; values are never in a text). */
const WARNED_TEXT = 160;

/** What one connection has prepared (SQL `PREPARE` lasts for the session; ROLLBACK does not undo it). */
interface Session {
  /** Names prepared on the server, least recently used first. */
  names: BoundedMap<string, true>;
  /** After an error the server's set is not known: the next message starts with DEALLOCATE ALL. */
  unknown: boolean;
  /** Names `names` dropped to make room, still to DEALLOCATE on the server (in the next message). */
  dropped: string[];
  /**
   * Counts the `DEALLOCATE ALL`s composed: a PREPARE sent alone while another message may run (PGlite's one session
   * serves every request) is recorded only if none was composed meanwhile, since the server may have run it after.
   */
  generation: number;
}

/** One simple-protocol message for some statements on one connection. */
export interface Message {
  /** The message's statements in order: DEALLOCATE, PREPARE, EXECUTE or the statement with its values written in. */
  texts: string[];
  /** For each statement given, the index of its result among `texts`. */
  at: number[];
  /** Statement texts sent as literals this time, to try preparing once the connection is outside a transaction. */
  probe: string[];
  /** Whether the message relies on the connection's prepared statements (a PREPARE, EXECUTE or DEALLOCATE in it). */
  prepared: boolean;
}

/** Longer texts are not prepared: they are the ones whose shape varies with the input, and each plan costs backend memory. */
export const MAX_PREPARED_TEXT = 8_000;
/** Statement texts remembered process-wide (name and whether they prepare), past which the least recently used are forgotten. */
const KNOWN_TEXTS = 5_000;
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;
/** Errors of a PREPARE that say the statement cannot be prepared as it is (syntax or access rule, e.g. a parameter's type cannot be inferred; feature not supported). */
const UNPREPARABLE_CLASSES = ['42', '0A'];

/**
 * Statements prepared once per pooled PostgreSQL connection and executed inside the same simple-protocol
 * messages as before: the statement with its values written in becomes `EXECUTE v_<hash>(<literals>)`, preceded
 * by its `PREPARE` the first time the connection runs it. The server then parses, analyses and (after five
 * executions, if no dearer than the custom plans) plans it once per connection instead of at every request.
 *
 * Which statements: those sent by `Db.transaction` and `queryBatch` whose values can all be written in, with
 * at least one parameter, every `$n` up to the number of values used, beginning with SELECT, INSERT, UPDATE,
 * DELETE or WITH, at most MAX_PREPARED_TEXT characters. Whether the server can infer a text's parameter types is
 * learnt once per process, by a PREPARE sent alone where no transaction is open (a failure there harms
 * nothing): just before the transaction or batch whose opening message holds the text (`untried`), else, for a
 * text first seen later in a transaction, after that transaction, the text travelling as literal text meanwhile.
 * A text that cannot be prepared stays literal text. At most `perConnection` statements per connection, the
 * least recently used deallocated.
 * After any error on a connection its set is forgotten and its next message begins with DEALLOCATE ALL.
 */
export class PreparedStatements {
  private readonly sessions = new WeakMap<object, Session>();
  private readonly known = new BoundedMap<string, Known>(KNOWN_TEXTS, 'use');
  /** Texts already told as given more values than they name (gap). */
  private readonly gapsTold = new BoundedMap<string, true>(KNOWN_TEXTS, 'use');

  /**
   * @param warn told once per text when a statement that should run prepared cannot: it is given more values than it
   *   names, or the server refused its PREPARE. Such a statement still runs, as text parsed and planned at every call,
   *   which is correct but slow; the warning makes it visible (a silent fallback hid a 15 % slower session creation
   *   for a day: docs/performance.md, write path round 17).
   */
  constructor(
    readonly perConnection: number,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    if (!Number.isInteger(perConnection) || perConnection < 1)
      throw new RangeError(`perConnection must be a positive integer, got ${perConnection}`);
  }

  /** The message for `stmts` on `client`, or null when a value cannot be written in (nothing is changed then). */
  compose(client: object, stmts: readonly Stmt[]): Message | null {
    const placed: { template: SqlTemplate; literals: string[]; known: Known | null }[] = [];
    for (const st of stmts) {
      const p = this.place(st);
      if (p === null) return null;
      placed.push(p);
    }
    const s = this.session(client);
    const texts: string[] = [];
    if (s.unknown) {
      texts.push('DEALLOCATE ALL');
      s.names.clear();
      s.dropped = [];
      s.unknown = false;
      s.generation++;
    }
    for (const name of s.dropped.splice(0)) texts.push(`DEALLOCATE ${name}`);
    const at: number[] = [];
    const probe: string[] = [];
    let written = 0;
    for (let i = 0; i < placed.length; i++) {
      const { template, literals, known } = placed[i]!;
      if (known !== null && known.ok === null && s.names.has(known.name)) known.ok = true; // forgotten process-wide, still prepared here
      if (known === null || known.ok !== true) {
        if (known?.ok === null) probe.push(stmts[i]!.sql);
        at.push(texts.length);
        texts.push(template.fill(literals)); // the text with its values written in: only when it is not EXECUTEd
        written++;
        continue;
      }
      if (s.names.get(known.name) === undefined) {
        s.names.set(known.name, true);
        // The name dropped to make room, if one was, goes before the PREPARE (it may be prepared again below).
        for (const name of s.dropped.splice(0)) texts.push(`DEALLOCATE ${name}`);
        texts.push(`PREPARE ${known.name} AS ${stmts[i]!.sql}`);
      }
      at.push(texts.length);
      texts.push(`EXECUTE ${known.name}(${literals.join(', ')})`);
    }
    // Every text but the statements written in whole is a DEALLOCATE, PREPARE or EXECUTE.
    return { texts, at, probe, prepared: texts.length > written };
  }

  /**
   * The texts of `stmts` that may be prepared and have not been tried yet in this process: where they open a
   * transaction or a batch, they are PREPAREd alone just before it (`probe`; nothing is open there for a failure to
   * abort), so even their first execution runs prepared, under the transaction's plan settings.
   */
  untried(stmts: readonly Stmt[]): string[] {
    const out: string[] = [];
    for (const st of stmts) {
      const known = this.known.get(st.sql);
      if (known !== undefined && known.ok !== null) continue; // decided already: the common case, no work
      if (this.place(st)?.known?.ok === null) out.push(st.sql);
    }
    return out;
  }

  /** The statement's template, literals and, when it may be prepared, its name; null when a value cannot be written in. */
  private place(st: Stmt): { template: SqlTemplate; literals: string[]; known: Known | null } | null {
    const params = st.params ?? [];
    const literals = sqlLiterals(params);
    if (literals === null) return null;
    const template = sqlTemplate(st.sql);
    if (template === null || !template.fits(literals.length)) return null;
    // Arrays and objects travel written in but are never prepared: where a statement takes a list (token
    // searches, `= ANY`), its best plan depends on the values.
    if (params.length === 0 || !scalarsOnly(params)) return { template, literals, known: null };
    if (!template.usesEvery(params.length)) {
      this.gap(st.sql, template.highest, params.length);
      return { template, literals, known: null };
    }
    return { template, literals, known: this.candidate(st.sql) };
  }

  /** After an error on a message composed for `client`: what it has prepared is no longer known. */
  failed(client: object): void {
    const s = this.sessions.get(client);
    if (s) s.unknown = true;
  }

  /**
   * PREPAREs each text not tried yet on `client`, which must be outside a transaction (a failing PREPARE then
   * aborts nothing): a success is recorded for the process and the connection, a failure of the statement
   * itself marks the text as not preparable. Never throws; answers the error when the server session already
   * had a statement of that name, which this connection never prepared (42P05: the session is shared, a
   * pooler), else null.
   */
  async probe(client: { query(sql: string): Promise<unknown> }, sqls: readonly string[]): Promise<unknown> {
    const s = this.session(client);
    for (const sql of new Set(sqls)) {
      const known = this.known.get(sql);
      if (s.unknown || known === undefined || known.ok === false || s.dropped.includes(known.name)) continue;
      if (s.names.has(known.name)) {
        known.ok = true;
        continue;
      }
      const generation = s.generation;
      try {
        await client.query(`PREPARE ${known.name} AS ${sql}`);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        s.unknown = true;
        if (code === '42P05') return err;
        if (typeof code === 'string' && UNPREPARABLE_CLASSES.includes(code.slice(0, 2))) {
          known.ok = false;
          // A table the transaction creates itself (a temporary table of an import) does not exist yet here: a
          // statement run once per transaction loses nothing unprepared, and that is no news to log.
          if (code !== '42P01')
            this.warn(
              `a statement cannot be prepared (${code}: ${(err as Error).message}); it runs as text, parsed at every call: ${brief(sql)}`,
            );
          s.unknown = false; // the statement failed alone: nothing else changed on the server
        }
        continue;
      }
      known.ok = true;
      // A DEALLOCATE ALL composed meanwhile may have run before or after this PREPARE: the set is not known.
      if (s.generation !== generation) s.unknown = true;
      else s.names.set(known.name, true);
    }
    return null;
  }

  /** The server-side name a statement text is prepared under. */
  static nameOf(sql: string): string {
    return `v_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
  }

  /** Whether the text may be prepared by its shape (see the class), remembered with its name. */
  private candidate(sql: string): Known | null {
    let known = this.known.get(sql);
    if (known === undefined) {
      const ok = preparableShape(sql) ? null : false;
      known = { name: PreparedStatements.nameOf(sql), ok };
      this.known.set(sql, known);
    }
    return known.ok === false ? null : known;
  }

  /**
   * A text given more values than it names (or with a number skipped) is never prepared: PostgreSQL cannot type a
   * parameter the text does not use. Told once per text; what `known` holds of the text is left alone, so a caller
   * that gives the same text the right number of values still has it prepared.
   */
  private gap(sql: string, highest: number, given: number): void {
    if (this.gapsTold.get(sql) !== undefined || !preparableShape(sql)) return;
    this.gapsTold.set(sql, true);
    this.warn(
      `a statement is given ${given} values but names ${highest === given ? 'not every one' : `up to $${highest}`}; it runs as text, parsed at every call: ${brief(sql)}`,
    );
  }

  private session(client: object): Session {
    let s = this.sessions.get(client);
    if (s === undefined) {
      const session: Session = {
        names: new BoundedMap(this.perConnection, 'use', (name) => session.dropped.push(name)),
        unknown: false,
        dropped: [],
        generation: 0,
      };
      this.sessions.set(client, (s = session));
    }
    return s;
  }
}

/** Whether a text may be prepared by its shape: a SELECT, INSERT, UPDATE, DELETE or WITH of at most MAX_PREPARED_TEXT characters. */
function preparableShape(sql: string): boolean {
  return sql.length <= MAX_PREPARED_TEXT && PREPARABLE.test(sql);
}

/** A statement text shortened for a log line, on one line. */
function brief(sql: string): string {
  const one = sql.replace(/\s+/g, ' ').trim();
  return one.length > WARNED_TEXT ? `${one.slice(0, WARNED_TEXT)}…` : one;
}

/**
 * Why a message relying on prepared statements failed, when that is the cause: `pooler` when the server session
 * lacks a statement this connection prepared or already has one it did not (26000 "prepared statement … does not
 * exist", 42P05 "… already exists": sessions handed out per transaction); `changed` when a migration changed a
 * table a prepared statement returns the rows of (0A000 "cached plan must not change result type"). Null otherwise.
 */
export function preparedLost(err: unknown): 'pooler' | 'changed' | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '26000' || code === '42P05') return 'pooler';
  if (code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message))) return 'changed';
  return null;
}
