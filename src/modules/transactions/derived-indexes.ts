import type { Db } from '../../platform/db.js';
import type { JobHandler } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { compileRuleSet, GROUP_DIMENSIONS, requiredAggregates, type GroupDimension, type RuleSet } from '../../engines/rules/index.js';
import { ruleRows } from '../rules/index.js';
import { usesRollup } from './aggregates.js';
import { filtersAmountEquality } from './aggregate-pushdown.js';
import { DIM_COLUMN, derivedIndexRows } from './repository.js';

/**
 * Indexes derived from the published aggregates (Marble's idea, on a table every tenant shares).
 * An aggregate that reads raw history selects the rows of its group (one or more dimensions) in a time
 * range: `WHERE account_id, environment, <dimension columns> = …, occurred_at in (…]`. Subject and
 * counterparty alone have fixed indexes (migration 0022); every other grouping in use gets
 * `txn_agg_<dims>` on (account_id, environment, <dims>, occurred_at) WHERE the dimensions are set. An aggregate
 * filtered on `amount == <value>` (the fan-in's and PaySim's `amount == tx.amount`, carried into SQL by
 * aggregate-pushdown.ts) gets `txn_agg_<dims>_amount` on (account_id, environment, <dims>, amount, occurred_at)
 * instead, subject included: its read is then the rows of that amount, not the group's whole window (a heavy
 * subject's 90 days were ~20,000 rows walked for a handful).
 *
 * Safe by construction: the names come from a closed set (combinations of six dimensions, never user
 * text); at most MAX_DERIVED_INDEXES exist (the groupings most tenants use win), so no tenant can make
 * every insert pay for dozens of indexes; PostgreSQL builds and drops them CONCURRENTLY (no write lock
 * on transactions), outside any transaction, in a job (one at a time: the job's dedupe key); an index
 * left INVALID by a failed concurrent build is dropped and built again. An index no published rule set
 * needs any more is dropped.
 */
export const MAX_DERIVED_INDEXES = 8;
export const RECURRING_INDEX_SYNC_MS = 600_000;
const FIXED: readonly string[] = ['subject', 'counterparty'];

export interface IndexSpec {
  name: string;
  dims: GroupDimension[];
  /** amount between the dimensions and occurred_at: for aggregates filtered on amount equality. */
  amount: boolean;
  sql: { create: string; createConcurrently: string };
}

export function indexSpec(dims: readonly GroupDimension[], amount = false): IndexSpec {
  const sorted = GROUP_DIMENSIONS.filter((d) => dims.includes(d));
  const name = `txn_agg_${sorted.join('_')}${amount ? '_amount' : ''}`;
  const cols = sorted.map((d) => DIM_COLUMN[d]!);
  const body = `${name} ON transactions (account_id, environment, ${cols.join(', ')}${amount ? ', amount' : ''}, occurred_at) WHERE ${cols
    .map((c) => `${c} IS NOT NULL`)
    .join(' AND ')}`;
  return {
    name,
    dims: sorted,
    amount,
    sql: { create: `CREATE INDEX IF NOT EXISTS ${body}`, createConcurrently: `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${body}` },
  };
}

/** The groupings that need an index, with how many rule sets use each, from the rule sets given. */
export function wantedIndexes(ruleSets: readonly RuleSet[], max = MAX_DERIVED_INDEXES): IndexSpec[] {
  const uses = new Map<string, { spec: IndexSpec; n: number }>();
  for (const rs of ruleSets) {
    const c = compileRuleSet(rs);
    if (!c.ok) continue;
    const needed = new Set(requiredAggregates(c.compiled).map((a) => a.key));
    const names = new Set<string>();
    for (const p of c.compiled.aggregates) {
      if (!needed.has(p.key) || usesRollup(p)) continue;
      const spec = indexSpec(p.dims, filtersAmountEquality(p));
      if (!spec.amount && spec.dims.length === 1 && FIXED.includes(spec.dims[0]!)) continue;
      if (names.has(spec.name)) continue;
      names.add(spec.name);
      const u = uses.get(spec.name) ?? { spec, n: 0 };
      u.n++;
      uses.set(spec.name, u);
    }
  }
  return [...uses.values()]
    .sort((a, b) => b.n - a.n || a.spec.name.localeCompare(b.spec.name))
    .slice(0, max)
    .map((u) => u.spec);
}

/** Brings the derived indexes in line with the published rule sets; idempotent. */
export async function syncDerivedIndexes(db: Db): Promise<{ created: string[]; dropped: string[]; kept: string[] }> {
  const wanted = wantedIndexes(await ruleRows.currentOfAll(db));
  const existing = await derivedIndexRows.list(db);
  const wantedNames = new Set(wanted.map((w) => w.name));
  const concurrently = db.kind === 'postgres';
  const created: string[] = [];
  const dropped: string[] = [];
  const kept: string[] = [];
  for (const e of existing) {
    if (!wantedNames.has(e.name) || !e.valid) {
      await derivedIndexRows.drop(db, e.name, concurrently);
      if (!wantedNames.has(e.name)) dropped.push(e.name);
    }
  }
  const validExisting = new Set(existing.filter((e) => e.valid).map((e) => e.name));
  for (const w of wanted) {
    if (validExisting.has(w.name)) {
      kept.push(w.name);
      continue;
    }
    await db.query(concurrently ? w.sql.createConcurrently : w.sql.create);
    created.push(w.name);
  }
  return { created, dropped, kept };
}

export function derivedIndexJobHandlers(db: Db): Record<string, JobHandler> {
  return {
    [QUEUES.transactionsIndexes]: async () => {
      await syncDerivedIndexes(db);
    },
  };
}

export const TRANSACTIONS_RECURRING = [{ queue: QUEUES.transactionsIndexes, everyMs: RECURRING_INDEX_SYNC_MS }];
