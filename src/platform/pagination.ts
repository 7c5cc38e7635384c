import { createHmac, timingSafeEqual } from 'node:crypto';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Queryable } from './db.js';
import type { RequestContext } from './context.js';
import { invalid } from './errors.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

export const PageQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LIMIT,
      default: DEFAULT_LIMIT,
      description: `Page size, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`,
    }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'The next_cursor of the previous page.' })),
});
export type PageQuery = Static<typeof PageQuery>;

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor to get the next page; null on the last page.' }),
  });

let cursorSecret: Buffer = Buffer.from('verity-cursor');
/** Cursors are signed with a key derived from the master key, so they cannot be forged or edited. */
export function setCursorSecret(masterKey: Buffer): void {
  cursorSecret = createHmac('sha256', masterKey).update('pagination-cursor').digest();
}

/**
 * A cursor names the last row seen and the list it belongs to (tenant + endpoint). A cursor from
 * another tenant or another list is rejected; the query is also tenant-scoped, so even a valid
 * cursor can never reveal another tenant's rows.
 */
export function encodeCursor(scope: string, last: string): string {
  const payload = Buffer.from(JSON.stringify({ s: scope, l: last })).toString('base64url');
  const sig = createHmac('sha256', cursorSecret).update(payload).digest('base64url').slice(0, 22);
  return `${payload}.${sig}`;
}

export function decodeCursor(scope: string, cursor: string): string {
  const [payload, sig] = cursor.split('.');
  if (!payload || !sig) throw invalid('cursor', 'The cursor is malformed; pass next_cursor from the previous page unchanged.');
  const expected = createHmac('sha256', cursorSecret).update(payload).digest('base64url').slice(0, 22);
  const a = Buffer.from(sig);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b))
    throw invalid('cursor', 'The cursor is not valid; pass next_cursor from the previous page unchanged.');
  const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { s: string; l: string };
  if (parsed.s !== scope) throw invalid('cursor', 'The cursor belongs to another list.');
  return parsed.l;
}

export interface PageRequest {
  /** Table or subquery to page over; must contain `account_id`, `environment` and the key column. */
  from: string;
  /** Extra conditions, with $n placeholders numbered from 3. */
  where?: string[];
  params?: unknown[];
  /** Unique, monotonically assigned column (prefixed time-sortable ids): rows are ordered by it. */
  key?: string;
  order?: 'desc' | 'asc';
  columns?: string;
  limit?: number;
  cursor?: string;
  /** Names the list, so a cursor cannot be replayed on another endpoint. */
  name: string;
}

/**
 * Keyset pagination over a tenant-scoped table. Ordering by a unique key and continuing with
 * `key < last` (or `>` ascending) means inserts never shift a page: no row is seen twice or skipped.
 */
export async function paginate<T extends Record<string, unknown>>(
  db: Queryable,
  ctx: Pick<RequestContext, 'accountId' | 'environment'>,
  req: PageRequest,
): Promise<{ data: T[]; next_cursor: string | null }> {
  const key = req.key ?? 'id';
  const order = req.order ?? 'desc';
  const limit = Math.min(req.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const scope = `${ctx.accountId}:${ctx.environment}:${req.name}`;
  const params: unknown[] = [ctx.accountId, ctx.environment, ...(req.params ?? [])];
  const where = ['account_id = $1', 'environment = $2', ...(req.where ?? [])];
  if (req.cursor) {
    params.push(decodeCursor(scope, req.cursor));
    where.push(`${key} ${order === 'desc' ? '<' : '>'} $${params.length}`);
  }
  params.push(limit + 1);
  const rows = await db.query<T>(
    `SELECT ${req.columns ?? '*'} FROM ${req.from} WHERE ${where.join(' AND ')} ORDER BY ${key} ${order} LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > limit;
  const data = more ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, next_cursor: more && last ? encodeCursor(scope, String(last[key])) : null };
}
