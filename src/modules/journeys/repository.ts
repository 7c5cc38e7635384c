import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { BoundedMap } from '../../platform/bounded-map.js';
import { newId } from '../../platform/ids.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import type { JourneyDefinition } from './definition.js';
import type { Journey } from './schemas.js';
import { DEFAULT_JOURNEYS } from './defaults.js';
import { validateDefinition } from './definition.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

/** A journey's published version, as sessions pin it. */
export interface PublishedJourney {
  key: string;
  version: number;
  definition: JourneyDefinition;
}

/** Published versions read by session creation (see `journeys.publishedCached`), per tenant, environment and key or id. */
const publishedCache = new BoundedMap<string, PublishedJourney>(2_000, 'use');

/** Stored versions' definitions as sessions pin them (`journeys.pinnedDefinition`), per tenant, environment, key and version. */
const pinnedCache = new BoundedMap<string, JourneyDefinition>(2_000, 'use');

/**
 * The SQL condition a write adds to stay true to a cached published version: true while the journey `$key` of the
 * tenant (`$account`, `$environment`) still has `$version` published; otherwise it raises `journey_version_stale()`
 * (migration 0050), failing the statement and its transaction, so the write needs no answer read back to know.
 * Placeholders are given by the caller.
 */
export function stillPublishedOrRaise(account: string, environment: string, key: string, version: string): string {
  return `CASE WHEN EXISTS (SELECT 1 FROM journeys WHERE account_id = ${account} AND environment = ${environment} AND key = ${key} AND published_version = ${version}) THEN true ELSE journey_version_stale() END`;
}

/** The SQLSTATE `journey_version_stale()` raises. */
const JOURNEY_STALE_CODE = 'VK002';

/** Whether a write failed because the cached journey version it relied on is no longer the published one. */
export function isJourneyStale(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === JOURNEY_STALE_CODE;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export interface JourneyRow {
  id: string;
  environment: string;
  key: string;
  name: string;
  latest_version: number;
  published_version: number | null;
  created_at: Date;
  updated_at: Date;
}
export interface VersionRow {
  journey_id: string;
  version: number;
  definition: JourneyDefinition;
  status: 'draft' | 'published';
  created_by: string;
  created_at: Date;
  published_at: Date | null;
}

export function toJourney(j: JourneyRow, versions: VersionRow[]): Journey {
  return {
    id: j.id,
    object: 'journey',
    key: j.key,
    name: j.name,
    environment: j.environment,
    latest_version: j.latest_version,
    published_version: j.published_version,
    versions: versions.map((v) => ({
      version: v.version,
      status: v.status,
      definition: v.definition,
      created_by: v.created_by,
      created_at: iso(v.created_at)!,
      published_at: iso(v.published_at),
    })),
    created_at: iso(j.created_at)!,
    updated_at: iso(j.updated_at)!,
  };
}

export const journeys = {
  /**
   * Adds version n+1 of a journey (creating the journey at version 1), draft or published. The
   * journey row is locked (upsert), so two concurrent posts for one key get versions n+1 and n+2.
   */
  async addVersion(
    tx: Queryable,
    t: Tenant,
    input: { key: string; name: string; definition: JourneyDefinition; publish: boolean; createdBy: string },
  ): Promise<JourneyRow> {
    const [j] = await tx.query<JourneyRow>(
      `INSERT INTO journeys (id, account_id, environment, key, name, latest_version, published_version)
       VALUES ($1, $2, $3, $4, $5, 1, CASE WHEN $6 THEN 1 END)
       ON CONFLICT (account_id, environment, key) DO UPDATE SET name = EXCLUDED.name, latest_version = journeys.latest_version + 1,
         published_version = CASE WHEN $6 THEN journeys.latest_version + 1 ELSE journeys.published_version END, updated_at = now()
       RETURNING *`,
      [newId('journey'), t.accountId, t.environment, input.key, input.name, input.publish],
    );
    await tx.query(
      `INSERT INTO journey_versions (journey_id, version, definition, status, created_by, published_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, CASE WHEN $6 THEN now() END)`,
      [j!.id, j!.latest_version, JSON.stringify(input.definition), input.publish ? 'published' : 'draft', input.createdBy, input.publish],
    );
    return j!;
  },

  /** Makes an existing version the published one (a draft going live, or a rollback); null if the key or version is unknown. */
  async publishedVersion(db: Queryable, t: Tenant, key: string): Promise<{ published_version: number | null } | undefined> {
    const [j] = await db.query<{ published_version: number | null }>(
      'SELECT published_version FROM journeys WHERE account_id = $1 AND environment = $2 AND key = $3',
      [t.accountId, t.environment, key],
    );
    return j;
  },
  async publish(tx: Queryable, t: Tenant, key: string, version: number): Promise<JourneyRow | null> {
    const [j] = await tx.query<JourneyRow>('SELECT * FROM journeys WHERE account_id = $1 AND environment = $2 AND key = $3 FOR UPDATE', [
      t.accountId,
      t.environment,
      key,
    ]);
    if (!j) return null;
    const v = await tx.query(
      "UPDATE journey_versions SET status = 'published', published_at = coalesce(published_at, now()) WHERE journey_id = $1 AND version = $2 RETURNING version",
      [j.id, version],
    );
    if (v.length === 0) return null;
    const [updated] = await tx.query<JourneyRow>(
      'UPDATE journeys SET published_version = $2, updated_at = now() WHERE id = $1 RETURNING *',
      [j.id, version],
    );
    // This process's readers see the new version at once; other processes find out at their next write.
    publishedCache.clear();
    return updated!;
  },

  async versionsOf(db: Queryable, journeyIds: string[]): Promise<Map<string, VersionRow[]>> {
    const out = new Map<string, VersionRow[]>();
    if (journeyIds.length === 0) return out;
    const rows = await db.query<VersionRow>(
      'SELECT * FROM journey_versions WHERE journey_id = ANY($1::text[]) ORDER BY journey_id, version DESC',
      [journeyIds],
    );
    for (const r of rows) out.set(r.journey_id, [...(out.get(r.journey_id) ?? []), r]);
    return out;
  },

  /**
   * The published version of a journey named by its key or its id (`jrn_…`, what GET /v1/journeys shows
   * first) in the tenant's environment, or null (never published, or unknown).
   */
  async published(
    db: Queryable,
    t: Tenant,
    keyOrId: string,
  ): Promise<{ key: string; version: number; definition: JourneyDefinition } | null> {
    const rows = await db.query<{ key: string; version: number; definition: JourneyDefinition }>(
      `SELECT j.key, v.version, v.definition FROM journeys j JOIN journey_versions v ON v.journey_id = j.id AND v.version = j.published_version
       WHERE j.account_id = $1 AND j.environment = $2 AND (j.key = $3 OR j.id = $3)`,
      [t.accountId, t.environment, keyOrId],
    );
    return rows[0] ?? null;
  },

  /**
   * `published`, remembered per process: a session's creation reads it without a round trip. The version
   * may have been replaced since (a publish in another process), so whoever uses it must check at write time
   * that it is still the published one (`stillPublishedOrRaise`) and, if not, `forget` it and read again. The
   * definition is frozen: it is shared by every request that reads it.
   */
  async publishedCached(db: Queryable, t: Tenant, keyOrId: string): Promise<PublishedJourney | null> {
    const k = `${t.accountId}\n${t.environment}\n${keyOrId}`;
    const hit = publishedCache.get(k);
    if (hit) return hit;
    const found = await journeys.published(db, t, keyOrId);
    if (found) publishedCache.set(k, deepFreeze(found));
    return found;
  },
  /**
   * The definition of a stored version of the journey `key`, which sessions created on it refer to instead of
   * copying it (migration 0051); null if there is no such version. A version's definition never changes once
   * written (publishing changes its status only), so it is remembered per process without a check. Frozen: shared.
   */
  async pinnedDefinition(db: Queryable, t: Tenant, key: string, version: number): Promise<JourneyDefinition | null> {
    const k = `${t.accountId}\n${t.environment}\n${key}\n${version}`;
    const hit = pinnedCache.get(k);
    if (hit) return hit;
    const [row] = await db.query<{ definition: JourneyDefinition }>(
      `SELECT v.definition FROM journeys j JOIN journey_versions v ON v.journey_id = j.id AND v.version = $4
       WHERE j.account_id = $1 AND j.environment = $2 AND j.key = $3`,
      [t.accountId, t.environment, key, version],
    );
    if (!row) return null;
    const definition = deepFreeze(row.definition);
    pinnedCache.set(k, definition);
    return definition;
  },
  forget(t: Tenant, keyOrId: string): void {
    publishedCache.delete(`${t.accountId}\n${t.environment}\n${keyOrId}`);
  },

  async page(db: Queryable, t: Tenant, q: { limit?: number; cursor?: string; key?: string }) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.key) {
      params.push(q.key);
      where.push('key = $3');
    }
    return paginate<JourneyRow & Record<string, unknown>>(db, t, {
      from: 'journeys',
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'journeys',
    });
  },
};

const seeded = new Set<string>();

/**
 * Seeds the default journeys once per tenant and environment, on its first use of journeys or
 * sessions (account creation belongs to the platform; `seedDefaultJourneys` is the hook for it).
 * The seed marker commits with the journeys, so concurrent first requests seed exactly once.
 */
export async function ensureDefaultJourneys(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> } & Queryable,
  t: Tenant,
): Promise<void> {
  const k = `${t.accountId}:${t.environment}`;
  if (seeded.has(k)) return;
  await db.transaction(async (tx) => {
    const fresh = await tx.query(
      'INSERT INTO journey_seeds (account_id, environment) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING account_id',
      [t.accountId, t.environment],
    );
    if (fresh.length === 0) return;
    for (const d of DEFAULT_JOURNEYS) {
      const exists = await tx.query('SELECT 1 FROM journeys WHERE account_id = $1 AND environment = $2 AND key = $3', [
        t.accountId,
        t.environment,
        d.key,
      ]);
      if (exists.length === 0)
        await journeys.addVersion(tx, t, { ...d, definition: validateDefinition(d.definition), publish: true, createdBy: 'system' });
    }
  });
  seeded.add(k);
}

/** For the platform's account-creation hook (`bootstrapFirstAccount(db, [seedDefaultJourneys])`). */
export async function seedDefaultJourneys(db: Parameters<typeof ensureDefaultJourneys>[0], accountId: string): Promise<void> {
  for (const environment of ['sandbox', 'production'] as const) await ensureDefaultJourneys(db, { accountId, environment });
}
