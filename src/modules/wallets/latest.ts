import type { Queryable } from '../../platform/db.js';
import type { Environment } from '../../platform/context.js';
import { AddressError, parseAddress } from '../../engines/wallets/index.js';
import { walletScreenings } from './repository.js';

/** The KYT rule context's `wallet` (engines/rules/context.ts, type Wallet) plus where it came from. */
export interface WalletRuleContext {
  screened: boolean;
  address: string;
  chain: string;
  risk: string;
  score: number;
  sanctioned: boolean;
  categories: string[];
  screening_id: string | null;
  screened_at: string | null;
}

/**
 * The latest wallet screening of an address for a tenant (any trigger: API, monitor, re-screen), as
 * the KYT rule context's `wallet`. An address never screened gives `screened: false`; one that does
 * not parse (on the chain, when given) gives null. Reads one indexed row; never screens or bills.
 */
export async function latestWalletScreening(
  db: Queryable,
  t: { accountId: string; environment: Environment },
  address: string,
  chain?: string,
): Promise<WalletRuleContext | null> {
  let parsed;
  try {
    parsed = parseAddress(address, chain).address;
  } catch (e) {
    if (e instanceof AddressError) return null;
    throw e;
  }
  const row = await walletScreenings.latestFor(db, t, [parsed.normalized, ...parsed.keys]);
  if (!row)
    return {
      screened: false,
      address: parsed.normalized,
      chain: parsed.chain,
      risk: '',
      score: 0,
      sanctioned: false,
      categories: [],
      screening_id: null,
      screened_at: null,
    };
  return {
    screened: true,
    address: row.normalized_address,
    chain: row.chain,
    risk: row.level,
    score: row.score,
    sanctioned: row.categories.includes('sanctions'),
    categories: row.categories,
    screening_id: row.id,
    screened_at: new Date(row.created_at).toISOString(),
  };
}
