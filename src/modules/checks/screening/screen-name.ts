import type { Queryable } from '../../../platform/db.js';
import type { Environment } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { BoundedMap } from '../../../platform/bounded-map.js';
import { AppError } from '../../../platform/errors.js';
import { defineResource } from '../../../platform/resources.js';
import { normalizeListValue } from '../../lists/index.js';
import type { ScreeningIndexCache, SnapshotIndex } from './index-cache.js';
import { loadListRules } from './list-rules.js';
import { selectIndexes } from './run-screening.js';

type Tenant = { accountId: string; environment: Environment };

/** What a name screening says, in the shape a rule context reads (no stored check, no event). */
export interface NameScreening {
  status: 'no_match' | 'potential_match' | 'match';
  /** The best hit's score (0 without a hit). */
  score: number;
  /** The hits' list entity ids (`blocklist:<entry id>` for an operator block entry), best first. */
  entity_ids: string[];
  /** The sources of the hits (ofac_sdn, un_sc…, blocklist). */
  lists: string[];
  /** The kinds of list the hits are on (sanctions, pep, crime…; blocklist for an operator block entry). */
  datasets: string[];
  /** An operator block entry (a name, or a screening entity blocked for this reference) matched. */
  blocked: boolean;
  /** The hits as reviewers read them: `<entity id> "<listed name>" (<source>, <score>)`, best first. */
  matches: string[];
  /** The list snapshot each source was screened against. */
  list_versions: Record<string, string>;
  /** The allow/block list entries that applied. */
  list_entries_applied: string[];
}

/** Most hits kept per name (the rule context needs the best few, not a review queue). */
const MAX_HITS = 5;
/** Entries kept by the memo; the oldest go first. A hit costs one Map lookup. */
const MEMO_ENTRIES = 20_000;

/**
 * Name screenings memoised per (tenant, environment, normalised name, reference, list snapshots,
 * applied allow/block entries): a counterparty paid twice costs one indexed list-entry read and a
 * Map lookup, not a round trip to the screening worker. A new snapshot (a list update) or an added or
 * removed list entry changes the key, so nothing stale is answered; entries are evicted oldest first.
 */
export class NameScreeningMemo {
  private readonly map: BoundedMap<string, NameScreening>;
  hits = 0;
  misses = 0;
  constructor(max = MEMO_ENTRIES) {
    this.map = new BoundedMap(max);
  }
  get(key: string): NameScreening | undefined {
    const v = this.map.get(key);
    if (v) this.hits++;
    else this.misses++;
    return v;
  }
  set(key: string, v: NameScreening): void {
    this.map.set(key, v);
  }
  get size(): number {
    return this.map.size;
  }
}

/** The process's memo of name screenings (`resources.get(NAME_SCREENINGS)`). */
export const NAME_SCREENINGS = defineResource<NameScreeningMemo>(
  'screening.name_memo',
  () => new NameScreeningMemo(),
  () => undefined,
);

/**
 * Screens one name (a transaction's counterparty) against the environment's active lists and the
 * tenant's allow/block entries, as POST /v1/checks/screening would with only a name, without storing a
 * check. `reference` selects the allow/block `screening_entity` entries made for that reference.
 * Reads through `db` (a request's batching reader or a transaction), never writes.
 * Throws check_unavailable when no list is active in the environment (as the check does).
 */
export async function screenName({
  db,
  tenant,
  sealer,
  cache,
  memo,
  name,
  reference,
}: {
  db: Queryable;
  tenant: Tenant;
  sealer: Sealer;
  cache: ScreeningIndexCache;
  memo?: NameScreeningMemo;
  name: string;
  reference?: string | undefined;
}): Promise<NameScreening> {
  const select = (all: SnapshotIndex[]) => selectIndexes(all, tenant.environment);
  const [all, rules] = await Promise.all([
    cache.get(),
    loadListRules(db, tenant, sealer, { subjectReference: reference, names: [name], documents: [] }),
  ]);
  const selected = select(all);
  const key = JSON.stringify([
    tenant.accountId,
    tenant.environment,
    normalizeListValue('name', name),
    reference ?? null,
    selected.map((s) => s.snapshot.id).sort(),
    [...rules.entryIds].sort(),
  ]);
  const known = memo?.get(key);
  if (known) return known;
  const { result: r } = await cache.screen(selected, { name }, { rules, limit: MAX_HITS }, select);
  const hits = r.hits;
  const out: NameScreening = {
    status: r.decision,
    score: hits.reduce((m, h) => Math.max(m, h.score), 0),
    entity_ids: hits.map((h) => h.entity_id),
    lists: [...new Set(hits.map((h) => h.source))].sort(),
    datasets: [...new Set(hits.flatMap((h) => (h.blocked ? ['blocklist', ...h.datasets] : h.datasets)))].sort(),
    blocked: hits.some((h) => h.blocked),
    matches: hits.map((h) => `${h.entity_id} "${h.names[0] ?? ''}" (${h.source}, ${h.score})`),
    list_versions: r.list_versions,
    list_entries_applied: rules.entryIds,
  };
  memo?.set(key, out);
  return out;
}

/** Whether an error is "no list to screen against" (the caller decides what that means for it). */
export function isNoListError(err: unknown): boolean {
  return err instanceof AppError && err.code === 'check_unavailable';
}
