import { CHAINS, TOKEN_HOSTS, type ChainEntry } from './chains.js';
import { AddressError, type ParsedAddress } from './types.js';

// Address parsing and chain inference over the registry. A chain name may be our id, an alias
// (OFAC's XBT, ETH …) or a token (USDT), which stands for its host chains.

const BY_NAME = new Map<string, ChainEntry>();
for (const c of CHAINS) {
  BY_NAME.set(c.id, c);
  for (const a of c.aliases) BY_NAME.set(a.toLowerCase(), c);
}

export function chainById(id: string): ChainEntry | undefined {
  return BY_NAME.get(id.trim().toLowerCase());
}

/** The chains a caller's chain/currency name can mean: one for a chain, several for a token. */
export function resolveChainName(name: string): ChainEntry[] {
  const c = chainById(name);
  if (c) return [c];
  const hosts = TOKEN_HOSTS[name.trim().toUpperCase()];
  if (hosts) return hosts.map((h) => BY_NAME.get(h)!);
  throw new AddressError('unknown_chain', `unknown chain or currency "${name}"`);
}

export interface ParseOutcome {
  address: ParsedAddress;
  /** Every chain the address decodes on (within the named chain's hosts when a token was named). */
  candidates: string[];
}

/**
 * Parses `address` on `chain` (id, alias or token) or, without one, on every chain it could
 * belong to. The first candidate in registry order is returned as `address`; the rest are listed.
 * Throws AddressError with the most specific reason when nothing matches.
 */
export function parseAddress(address: string, chain?: string): ParseOutcome {
  const s = address.trim();
  if (!s) throw new AddressError('empty', 'address is empty');
  const pool = chain ? resolveChainName(chain) : CHAINS;
  const parsed: ParsedAddress[] = [];
  let firstError: AddressError | undefined;
  for (const c of pool) {
    // A named single chain always gets the full decode so the caller hears the precise reason.
    if (pool.length > 1 && !c.shape.test(s)) continue;
    try {
      parsed.push(c.decode(s));
    } catch (e) {
      if (!(e instanceof AddressError)) throw e;
      firstError ??= e;
    }
  }
  if (!parsed.length) {
    if (firstError) throw firstError;
    if (/^[0-9a-fA-F]{64}$/.test(s)) throw new AddressError('not_an_address', '64 hex characters: a transaction id or key, not an address');
    throw new AddressError('unknown_prefix', chain ? `not an address of ${chain}` : 'the address matches no known chain format');
  }
  return { address: parsed[0]!, candidates: parsed.map((p) => p.chain) };
}

/** All chains an address could belong to (empty when it is invalid everywhere). */
export function inferChains(address: string): string[] {
  try {
    return parseAddress(address).candidates;
  } catch {
    return [];
  }
}
