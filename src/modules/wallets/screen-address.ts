import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { computeWalletScreen } from './screen-wallet.js';
import type { WalletIndexes } from './indexes.js';

/** One address screened for another module (Travel Rule): the full screening, summarised, nothing written. */
export interface AddressScreening {
  address: string;
  valid: boolean;
  /** Why the address was not screened (invalid format, unknown chain); null when screened. */
  reason: string | null;
  chain: string | null;
  candidate_chains: string[];
  normalized_address: string | null;
  level: 'low' | 'medium' | 'high' | 'severe' | null;
  score: number | null;
  /** category:exposure:direction with hops and share, and the lists, versions and entities behind it. */
  findings: {
    category: string;
    exposure: 'direct' | 'indirect';
    direction: string;
    hops: number;
    share: number;
    level: string | null;
    sources: { list: string; version: string; entity_name: string | null }[];
  }[];
  list_versions: Record<string, string>;
}

/**
 * Screens one address as POST /v1/wallets/screen does (active list snapshots, the tenant's attribution
 * lists and block list, N-hop exposure over its known transfers, its policy table) without storing a
 * screening or billing it: the caller records the summary on its own resource. An address the wallets
 * engine cannot parse is returned as invalid with the reason, never thrown.
 */
export async function screenAddressFor(
  ctx: Pick<RequestContext, 'db' | 'accountId' | 'environment'>,
  sealer: Sealer,
  input: { address: string; chain?: string; hops?: number },
  indexes: WalletIndexes,
): Promise<AddressScreening> {
  try {
    const r = await computeWalletScreen(ctx, sealer, input, indexes);
    return {
      address: input.address,
      valid: true,
      reason: null,
      chain: r.chain,
      candidate_chains: r.candidateChains,
      normalized_address: r.normalizedAddress,
      level: r.risk.level,
      score: r.risk.score,
      findings: r.categories.map((c) => ({
        category: c.category,
        exposure: c.exposure,
        direction: c.direction,
        hops: c.hops,
        share: Math.round(c.share * 1e6) / 1e6,
        level: c.level ?? null,
        sources: c.sources.slice(0, 5).map((s) => ({ list: s.list, version: s.version, entity_name: s.entityName ?? null })),
      })),
      list_versions: r.listVersions,
    };
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 400) throw err;
    return {
      address: input.address,
      valid: false,
      reason: err.message,
      chain: null,
      candidate_chains: [],
      normalized_address: null,
      level: null,
      score: null,
      findings: [],
      list_versions: {},
    };
  }
}
