/**
 * Values written into SQL text as quoted literals, for statements sent in simple-protocol messages
 * (several statements in one round trip) and as the arguments of `EXECUTE`.
 */

/**
 * The statement with its `$n` placeholders replaced by quoted literals (untyped, so the server infers
 * their types from the context exactly as it does for parameters), or null when a value is not a plain
 * string, number, boolean, date or null (arrays, objects, buffers keep the extended protocol), a string holds a
 * NUL byte, or a placeholder has no value. Placeholders inside quotes, quoted names, dollar-quoted
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
    if (v === null || v === undefined) literals.push('NULL');
    else if (typeof v === 'string') {
      if (v.includes('\0')) return null;
      literals.push(quoteLiteral(v));
    } else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') literals.push(`'${String(v)}'`);
    else if (v instanceof Date) {
      // An instant, written in UTC (every time column is timestamptz); an invalid date keeps the driver's error.
      if (!Number.isFinite(v.getTime())) return null;
      literals.push(`'${v.toISOString()}'`);
    } else return null;
  }
  return literals;
}

/**
 * The statement with each `$n` replaced by `literals[n - 1]`, and the highest `n` it uses (0 for none);
 * null when a placeholder has no literal or a block comment never closes.
 */
export function placeLiterals(sql: string, literals: readonly string[]): { text: string; highest: number } | null {
  let out = '';
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
    const lit = literals[Number(n) - 1];
    if (lit === undefined) return null;
    highest = Math.max(highest, Number(n));
    out += sql.slice(from, m.index) + lit;
    from = m.index + m[0].length;
  }
  return { text: out + sql.slice(from), highest };
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
