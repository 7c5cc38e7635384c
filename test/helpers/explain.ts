// EXPLAIN takes no bind parameters on every driver: tests that read a query's plan inline its values as literals.

/** The statement with $n replaced by its value as an SQL literal (strings, numbers, null, text arrays). */
export function inlineParams(q: { sql: string; params: unknown[] }): string {
  const lit = (v: unknown): string =>
    v === null
      ? 'NULL'
      : Array.isArray(v)
        ? `ARRAY[${v.map(lit).join(', ')}]::text[]`
        : typeof v === 'number'
          ? String(v)
          : `'${String(v).replace(/'/g, "''")}'`;
  return q.sql.replace(/\$(\d+)(::text\[\])?/g, (_, n: string) => lit(q.params[Number(n) - 1]));
}
