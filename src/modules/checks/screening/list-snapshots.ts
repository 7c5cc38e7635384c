import { Type, type Static } from '@sinclair/typebox';
import type { RequestContext } from '../../../platform/context.js';
import { DEFAULT_LIMIT, decodeCursor, encodeCursor, MAX_LIMIT } from '../../../platform/pagination.js';
import { iso, Timestamp } from '../../../platform/schemas.js';
import { SANDBOX_SOURCE } from './activate-snapshot.js';
import { snapshots, type SnapshotRow } from './snapshot-repository.js';

/**
 * GET /v1/checks/screening/list-snapshots: which list versions screening runs against. Snapshots are
 * global operator data (every tenant screens against the same lists), so a tenant reads their
 * metadata (source, version, counts, times, state), never their entities (docs/api-decisions.md).
 */
const State = Type.Union([Type.Literal('active'), Type.Literal('superseded'), Type.Literal('failed')]);

export const ListSnapshotsQuery = Type.Object(
  {
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this list source (e.g. ofac_sdn, un_sc).' })),
    state: Type.Optional(State),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `Page size, 1 to ${MAX_LIMIT}.` }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 512, description: 'The next_cursor of the previous page.' })),
  },
  { additionalProperties: false },
);
export type ListSnapshotsQuery = Static<typeof ListSnapshotsQuery>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const ListSnapshot = Type.Object(
  {
    id: Type.String({ description: 'lsn_…' }),
    object: Type.Literal('list_snapshot'),
    source: Type.String(),
    format: Nullable(Type.String({ description: 'The file format it was read from.' })),
    version: Nullable(Type.String({ description: "Content hash of the snapshot's entities; null for a failed attempt." })),
    entity_count: Type.Integer({ minimum: 0 }),
    state: State,
    active: Type.Boolean({ description: 'Screening runs against this snapshot (exactly one per source).' }),
    origin: Type.Union([Type.Literal('import'), Type.Literal('sync'), Type.Literal('builtin')]),
    error: Nullable(Type.String({ description: 'Why a failed import or sync failed.' })),
    imported_at: Timestamp,
    superseded_at: Nullable(Timestamp),
  },
  { title: 'ListSnapshot' },
);
export type ListSnapshot = Static<typeof ListSnapshot>;

export const ListSnapshotPage = Type.Object({
  data: Type.Array(ListSnapshot),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor to get the next page; null on the last page.' }),
});

const view = (s: SnapshotRow): ListSnapshot => ({
  id: s.id,
  object: 'list_snapshot',
  source: s.source,
  format: s.format,
  version: s.version,
  entity_count: s.entity_count,
  // The query leaves out staging rows (imports in progress).
  state: s.state as ListSnapshot['state'],
  active: s.state === 'active',
  origin: s.origin,
  error: s.error,
  imported_at: iso(s.imported_at)!,
  superseded_at: iso(s.superseded_at),
});

/**
 * Newest first; the cursor is signed and names this list and its filters (another filter's cursor is 400).
 * Production never screens the built-in sandbox list, so a production principal does not see it.
 */
export async function listListSnapshots({ ctx, query }: { ctx: RequestContext; query: ListSnapshotsQuery }) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const scope = `list-snapshots:${ctx.environment}:${query.source ?? ''}:${query.state ?? ''}`;
  const before = query.cursor ? decodeCursor(scope, query.cursor) : undefined;
  const notSource = ctx.environment === 'production' ? SANDBOX_SOURCE : undefined;
  const rows = await snapshots.page(ctx.db, { source: query.source, notSource, state: query.state, before, limit: limit + 1 });
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data: data.map(view), next_cursor: rows.length > limit && last ? encodeCursor(scope, last.id) : null };
}
