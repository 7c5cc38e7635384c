import type { RequestContext } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { iso } from '../../platform/schemas.js';
import { DEFAULT_POLICY, validatePolicy, type PolicyRow } from '../../engines/wallets/index.js';
import { walletPolicies } from './repository.js';
import type { PutPolicyBody, WalletPolicy } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

const toApi = (rows: readonly PolicyRow[]) =>
  rows.map((r) => ({ category: r.category, exposure: r.exposure, min_share: r.minShare, level: r.level }));

type Loaded = { rows: readonly PolicyRow[]; version: number; updatedAt: Date | null };

/** Policies read by screenings, per tenant, for at most CACHE_MS (a PUT in this process replaces its entry at once). */
const CACHE_MS = 1000;

/** Held by the process's wallet indexes (WALLET_INDEXES), not by this module. */
export class PolicyCache {
  private readonly entries = new Map<string, { value: Loaded; at: number }>();

  /** The tenant's policy table for a screening: cached for a second. */
  async get(db: Queryable, t: Tenant): Promise<Loaded> {
    const key = `${t.accountId}:${t.environment}`;
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
    const value = await loadPolicy(db, t);
    this.entries.set(key, { value, at: Date.now() });
    return value;
  }

  forget(t: Tenant): void {
    this.entries.delete(`${t.accountId}:${t.environment}`);
  }
}

/** The tenant's policy table (the engine's default until one is stored). */
export async function loadPolicy(
  db: Queryable,
  t: Tenant,
): Promise<{ rows: readonly PolicyRow[]; version: number; updatedAt: Date | null }> {
  const row = await walletPolicies.get(db, t);
  if (!row) return { rows: DEFAULT_POLICY, version: 0, updatedAt: null };
  const raw = (typeof row.rows === 'string' ? JSON.parse(row.rows) : row.rows) as PolicyRow[];
  return { rows: raw, version: row.version, updatedAt: row.updated_at };
}

export async function getPolicy(db: Queryable, t: Tenant): Promise<WalletPolicy> {
  const p = await loadPolicy(db, t);
  return { object: 'wallet_policy', version: p.version, rows: toApi(p.rows), updated_at: iso(p.updatedAt) };
}

/** Replaces the table; the audit row carries the previous and the new table. */
export async function putPolicy(ctx: RequestContext, body: PutPolicyBody, cache: PolicyCache): Promise<WalletPolicy> {
  cache.forget(ctx);
  let rows: PolicyRow[];
  try {
    rows = validatePolicy(body.rows.map((r) => ({ category: r.category, exposure: r.exposure, minShare: r.min_share, level: r.level })));
  } catch (e) {
    throw invalid('rows', (e as Error).message.replace(/^policy/, 'rows'));
  }
  return withTransaction<WalletPolicy>(ctx, async (tx) => {
    const before = await loadPolicy(tx, ctx);
    const saved = await walletPolicies.put(tx, ctx, rows);
    await emitAudit(tx, ctx, {
      action: 'wallet_policy.updated',
      resourceType: 'wallet_policy',
      resourceId: `${ctx.accountId}:${ctx.environment}`,
      diff: { rows: { before: toApi(before.rows), after: toApi(rows) } },
      metadata: { version: saved.version },
    });
    return { object: 'wallet_policy', version: saved.version, rows: toApi(rows), updated_at: iso(saved.updated_at) };
  }).finally(() => cache.forget(ctx));
}
