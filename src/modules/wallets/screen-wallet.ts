import type { RequestContext } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { recordUsage } from '../../platform/usage.js';
import { withTransaction } from '../../platform/transaction.js';
import {
  AddressError,
  AddressIndex,
  parseAddress,
  riskFingerprint,
  screenWallet,
  type ParsedAddress,
  type WalletScreenResult,
} from '../../engines/wallets/index.js';
import { blocklistEntriesFor, listValueIndex, normalizeListValue } from '../lists/index.js';
import type { WalletIndexes } from './indexes.js';
import { toScreening, walletScreenings, type ScreeningRow } from './repository.js';
import { WALLET_SCREENED } from './events.js';
import type { ScreenWalletBody, WalletScreening } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

/** Parses the request's address; an invalid one is a 400 naming the field, with the reason. */
export function parseRequestAddress(address: string, chain: string | undefined): ParsedAddress {
  try {
    return parseAddress(address, chain).address;
  } catch (e) {
    if (!(e instanceof AddressError)) throw e;
    if (e.reason === 'unknown_chain') throw invalid('chain', e.message);
    throw invalid('address', `${e.reason}: ${e.message}${chain ? ` (chain ${chain})` : ''}`);
  }
}

/** The caller's block list entries for this address, as an index of `custom` attributions. */
async function blockListIndex(db: Queryable, sealer: Sealer, t: Tenant, input: string, parsed: ParsedAddress): Promise<AddressIndex> {
  const spellings = new Set(
    [input.trim(), parsed.normalized, parsed.input, ...parsed.keys].map((v) => normalizeListValue('wallet_address', v)),
  );
  const indexes = [...spellings].map((v) => listValueIndex(sealer, t, 'wallet_address', v));
  const rows = await blocklistEntriesFor(db, t, 'wallet_address', indexes);
  const ix = new AddressIndex();
  if (rows.length)
    ix.add(
      rows.map((r) => ({
        chain: parsed.chain,
        address: parsed.normalized,
        category: 'custom' as const,
        list: { name: 'blocklist', version: r.id },
        entity: { id: r.id, name: r.reason },
      })),
    );
  return ix;
}

/**
 * Screens an address for a tenant without writing anything: direct hits in the active list
 * snapshots, the tenant's attribution lists and block list, indirect exposure over its known
 * transfers, levels from its policy table.
 */
export async function computeWalletScreen(
  ctx: Pick<RequestContext, 'db' | 'accountId' | 'environment'>,
  sealer: Sealer,
  input: { address: string; chain?: string; hops?: number },
  cache: WalletIndexes,
): Promise<WalletScreenResult> {
  const parsed = parseRequestAddress(input.address, input.chain);
  const [lists, tenant, policy, blocked] = await Promise.all([
    cache.listIndexes(ctx.environment),
    cache.tenant(ctx),
    cache.policies.get(ctx.db, ctx),
    blockListIndex(ctx.db, sealer, ctx, input.address, parsed),
  ]);
  return screenWallet(
    { address: input.address, ...(input.chain ? { chain: input.chain } : {}) },
    { indexes: [...lists, tenant.attributions, blocked], graph: tenant.graph, policy: policy.rows, hops: input.hops ?? 2 },
  );
}

/** The stored form of an engine result (the API's field names). */
export function toStoredResult(r: WalletScreenResult): ScreeningRow['result'] {
  return {
    address: r.input,
    chain: r.chain,
    candidate_chains: r.candidateChains,
    kind: r.kind,
    normalized_address: r.normalizedAddress,
    valid: true,
    checksum: r.checksum,
    risk: r.risk,
    categories: r.categories.map((c) => ({
      category: c.category,
      exposure: c.exposure,
      direction: c.direction,
      share: Math.round(c.share * 1e6) / 1e6,
      hops: c.hops,
      value: c.value ?? null,
      unit: c.unit ?? null,
      level: c.level ?? null,
      sources: c.sources.map((s) => ({
        list: s.list,
        version: s.version,
        entity_id: s.entityId ?? null,
        entity_name: s.entityName ?? null,
        program: s.program ?? null,
        listed_chain: s.listedChain,
        address: s.address,
        note: s.note ?? null,
      })),
    })),
    list_versions: r.listVersions,
  };
}

/** The categories a monitor compares (and shows): category:exposure:direction, sorted. */
export function fingerprintCategories(r: WalletScreenResult): string[] {
  return [...new Set(r.categories.map((c) => `${c.category}:${c.exposure}:${c.direction}`))].sort();
}

/** Writes one screening row (inside the caller's transaction). */
export async function insertScreening(
  tx: Queryable,
  t: Tenant,
  r: WalletScreenResult,
  o: { id?: string; subjectReference: string | null; monitorId: string | null; trigger: ScreeningRow['trigger'] },
): Promise<ScreeningRow> {
  return walletScreenings.insert(tx, t, {
    id: o.id ?? newId('walletScreening'),
    address: r.input,
    chain: r.chain,
    normalized_address: r.normalizedAddress,
    level: r.risk.level,
    score: r.risk.score,
    categories: [...new Set(r.categories.map((c) => c.category))].sort(),
    subject_reference: o.subjectReference,
    monitor_id: o.monitorId,
    trigger: o.trigger,
    result: toStoredResult(r),
  });
}

/**
 * POST /v1/wallets/screen: the engine runs first (no transaction), then one transaction stores the
 * screening, one usage record, the audit row and a wallet.screened event. An idempotent replay
 * returns the stored response and is not billed twice.
 */
export async function screenWalletVerb(
  ctx: RequestContext,
  sealer: Sealer,
  body: ScreenWalletBody,
  indexes: WalletIndexes,
): Promise<WalletScreening> {
  const result = await computeWalletScreen(ctx, sealer, body, indexes);
  return withTransaction(ctx, async (tx) => {
    const row = await insertScreening(tx, ctx, result, {
      subjectReference: body.subject_reference ?? null,
      monitorId: null,
      trigger: 'api',
    });
    await recordScreened(tx, ctx, row, result);
    return toScreening(row);
  });
}

/** Usage, audit and event of a billed screening. */
export async function recordScreened(tx: Queryable, ctx: RequestContext, row: ScreeningRow, result: WalletScreenResult): Promise<void> {
  await recordUsage(tx, ctx, 'wallets', 'wallet_screen', row.id);
  await emitAudit(tx, ctx, {
    action: 'wallet_screening.created',
    resourceType: 'wallet_screening',
    resourceId: row.id,
    metadata: {
      chain: row.chain,
      level: row.level,
      categories: row.categories,
      trigger: row.trigger,
      fingerprint: riskFingerprint(result),
    },
  });
  await enqueueEvent(tx, ctx, {
    type: WALLET_SCREENED,
    resourceType: 'wallet_screening',
    resourceId: row.id,
    data: {
      id: row.id,
      address: row.normalized_address,
      chain: row.chain,
      level: row.level,
      score: row.score,
      categories: row.categories,
      subject_reference: row.subject_reference,
    },
  });
}
