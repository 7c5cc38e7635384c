import { BoundedMap } from './bounded-map.js';

/**
 * Values written into SQL text as quoted literals, for statements sent in simple-protocol messages
 * (several statements in one round trip) and as the arguments of `EXECUTE`.
 */

/**
 * The statement with its `$n` placeholders replaced by quoted literals (untyped, so the server infers
 * their types from the context exactly as it does for parameters), or null when a value is not a plain
 * string, number, boolean, date, array of those or plain object (written as node-postgres writes them: an array
 * as a PostgreSQL array literal, an object as its JSON; buffers keep the extended protocol), a value holds a NUL
 * byte, or a placeholder has no value. Placeholders inside quotes, quoted names, dollar-quoted
 * bodies and comments are left alone.
 */
export function inlineParams(sql: string, params: readonly unknown[]): string | null {
  const literals = sqlLiterals(params);
  return literals === null ? null : (placeLiterals(sql, literals)?.text ?? null);
}

/** Each value as an untyped quoted literal (or NULL), or null when one cannot be written in (see inlineParams). */
export function sqlLiterals(params: readonly unknown[]): string[] | null {
  const literals: string[] = [];
  for (const v of params) {
    if (v === null || v === undefined) {
      literals.push('NULL');
      continue;
    }
    const text = parameterText(v);
    if (text === null || text.includes('\0')) return null;
    literals.push(quoteLiteral(text));
  }
  return literals;
}

/** Whether every value is a plain scalar (no array or object): what `PreparedStatements` prepares. */
export function scalarsOnly(params: readonly unknown[]): boolean {
  return params.every((v) => v === null || typeof v !== 'object' || v instanceof Date);
}

/**
 * The text node-postgres sends for a non-null value (its `prepareValue`): a string as it is, a date as its
 * instant (in UTC here, the same instant), an array as a PostgreSQL array literal (elements quoted and
 * escaped, NULL for null, nested arrays nested), a plain object as JSON. Null for what cannot be text
 * here: buffers and typed arrays (sent as bytes), invalid dates, objects with their own `toPostgres`.
 */
function parameterText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v !== 'object' || v === null) return null;
  if (v instanceof Date) return Number.isFinite(v.getTime()) ? v.toISOString() : null;
  if (ArrayBuffer.isView(v)) return null;
  if (Array.isArray(v)) return arrayLiteral(v);
  if (typeof (v as { toPostgres?: unknown }).toPostgres === 'function') return null;
  const json = JSON.stringify(v) as string | undefined;
  return json === undefined ? null : json;
}

/**
 * Strings as one PostgreSQL array literal (`{"a","b"}`), passed as a plain string for a `$n::text[]` parameter: a
 * string value is prepared with its statement where an array value is only written in (see PreparedStatements),
 * for lists whose plan does not depend on their values (a membership probe of a few values).
 */
export function textArrayLiteral(values: readonly (string | null)[]): string {
  return arrayLiteral(values)!;
}

function arrayLiteral(items: readonly unknown[]): string | null {
  const parts: string[] = [];
  for (const item of items) {
    if (item === null || item === undefined) parts.push('NULL');
    else if (Array.isArray(item)) {
      const inner = arrayLiteral(item);
      if (inner === null) return null;
      parts.push(inner);
    } else {
      const text = parameterText(item);
      if (text === null) return null;
      parts.push(`"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
    }
  }
  return `{${parts.join(',')}}`;
}

/**
 * The statement with each `$n` replaced by `literals[n - 1]`, and the highest `n` it uses (0 for none);
 * null when a placeholder has no literal or a block comment never closes.
 */
export function placeLiterals(sql: string, literals: readonly string[]): { text: string; highest: number } | null {
  const t = sqlTemplate(sql);
  if (t === null || !t.fits(literals.length)) return null;
  return { text: t.fill(literals), highest: t.highest };
}

/** A statement cut at its `$n` placeholders: the text between them, their numbers, and the highest. */
export class SqlTemplate {
  private readonly lowest: number;
  /** Whether every number from 1 to `highest` occurs among the placeholders (decided once per text). */
  private readonly gapless: boolean;
  constructor(
    private readonly parts: readonly string[],
    private readonly nums: readonly number[],
    readonly highest: number,
  ) {
    this.lowest = nums.length === 0 ? 1 : Math.min(...nums);
    this.gapless = new Set(nums.filter((n) => n >= 1 && n <= highest)).size === highest;
  }
  /** Whether every placeholder has one of `count` literals. */
  fits(count: number): boolean {
    return this.lowest >= 1 && this.highest <= count;
  }
  /**
   * Whether each of `$1` … `$count` occurs in the text. PostgreSQL cannot infer the type of a parameter the text
   * never uses, so a PREPARE of such a text fails (42P18) and the statement is parsed and planned at every call.
   */
  usesEvery(count: number): boolean {
    return this.gapless && this.highest === count;
  }
  /** The text with the literals in place (fits must hold). */
  fill(literals: readonly string[]): string {
    let out = this.parts[0]!;
    for (let i = 0; i < this.nums.length; i++) out += literals[this.nums[i]! - 1]! + this.parts[i + 1]!;
    return out;
  }
}

/** Statement texts already cut (the same few texts come back at every request), least recently added dropped first. */
const TEMPLATES = new BoundedMap<string, SqlTemplate | null>(5_000);

/** The statement cut at its placeholders (cached per text), or null when a block comment never closes. */
export function sqlTemplate(sql: string): SqlTemplate | null {
  let t = TEMPLATES.get(sql);
  if (t === undefined) {
    t = cut(sql);
    TEMPLATES.set(sql, t);
  }
  return t;
}

function cut(sql: string): SqlTemplate | null {
  const parts: string[] = [];
  const nums: number[] = [];
  let from = 0;
  let highest = 0;
  const tokens = SQL_TOKENS;
  tokens.lastIndex = 0;
  for (let m = tokens.exec(sql); m !== null; m = tokens.exec(sql)) {
    if (m[0] === '/*') {
      // Block comments nest in PostgreSQL (`/* a /* b */ c */` is one comment): skip to its end.
      const end = blockCommentEnd(sql, m.index);
      if (end < 0) return null; // unterminated: let the server report it
      tokens.lastIndex = end;
      continue;
    }
    const n = m[2];
    if (n === undefined) continue;
    highest = Math.max(highest, Number(n));
    parts.push(sql.slice(from, m.index));
    nums.push(Number(n));
    from = m.index + m[0].length;
  }
  parts.push(sql.slice(from));
  return new SqlTemplate(parts, nums, highest);
}

/** Quoted strings and names, line comments, dollar-quoted bodies (kept as they are), the start of a block comment and `$n` placeholders (captured). */
const SQL_TOKENS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*|\$([A-Za-z_][A-Za-z_0-9]*)?\$[\s\S]*?\$\1\$|\$(\d+)/g;

/** The index just past the block comment opened at `start`, counting nested `/*`, or -1 when it never closes. */
function blockCommentEnd(sql: string, start: number): number {
  let depth = 0;
  for (let i = start; i < sql.length - 1; i++) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i++;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The same literal as node-postgres' escapeLiteral: doubled quotes; with a backslash, an E'' string with doubled backslashes. */
function quoteLiteral(v: string): string {
  const q = v.includes("'") ? v.replace(/'/g, "''") : v;
  return v.includes('\\') ? ` E'${q.replace(/\\/g, '\\\\')}'` : `'${q}'`;
}

/** Every statement with its values written in (inlineParams), or null when one of them cannot be. */
export function inlineAll(stmts: readonly { sql: string; params?: readonly unknown[] }[]): string[] | null {
  const out: string[] = [];
  for (const st of stmts) {
    const inlined = inlineParams(st.sql, st.params ?? []);
    if (inlined === null) return null;
    out.push(inlined);
  }
  return out;
}
