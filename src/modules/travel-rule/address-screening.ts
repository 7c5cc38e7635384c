import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import type { IdentityPayload } from '../../engines/travel-rule/index.js';
import { screenAddressFor, type WalletIndexes } from '../wallets/index.js';
import type { SettingsRow } from './repository.js';
import type { TravelRuleMessage } from './schemas.js';

type Screening = NonNullable<TravelRuleMessage['screening']>;
export type AddressAction = 'proceed' | 'hold' | 'reject';
type Level = 'low' | 'medium' | 'high' | 'severe';

/**
 * What a wallet-screening level does to a message unless the environment says otherwise
 * (PATCH /v1/travel-rule/settings address_risk_actions): a direct sanctions-type hit (severe under the
 * default wallet policy) rejects, a high level (mixer, darknet, material indirect exposure) holds the
 * message for a person.
 */
export const DEFAULT_ADDRESS_ACTIONS: Readonly<Record<Level, AddressAction>> = {
  low: 'proceed',
  medium: 'proceed',
  high: 'hold',
  severe: 'reject',
};
const ACTION_RANK: Record<AddressAction, number> = { proceed: 0, hold: 1, reject: 2 };
const LEVEL_RANK: Record<Level, number> = { low: 0, medium: 1, high: 2, severe: 3 };

export function addressActions(settings: Pick<SettingsRow, 'address_risk_actions'> | null): Record<Level, AddressAction> {
  return { ...DEFAULT_ADDRESS_ACTIONS, ...(settings?.address_risk_actions ?? {}) };
}

/** The wallet addresses a message names, with their role: IVMS101 account numbers and the deposit address. */
export function messageAddresses(p: IdentityPayload, destinationAddress: string | null): { role: string; address: string }[] {
  const out: { role: string; address: string }[] = [];
  const seen = new Set<string>();
  const add = (role: string, address: string | undefined | null) => {
    const a = address?.trim();
    if (!a || seen.has(`${role}:${a}`)) return;
    seen.add(`${role}:${a}`);
    out.push({ role, address: a });
  };
  for (const a of p.originator?.accountNumber ?? []) add('originator', a);
  for (const a of p.beneficiary?.accountNumber ?? []) add('beneficiary', a);
  add('beneficiary', destinationAddress);
  return out;
}

/**
 * Full wallet screening of every address (the wallets module: list snapshots, attribution lists, block
 * list, N-hop exposure, the tenant's policy) and the message's outcome: the strictest action of any
 * address; an address that is not a valid address on any chain holds the message.
 */
export async function screenMessageAddresses(
  ctx: Pick<RequestContext, 'db' | 'accountId' | 'environment'>,
  sealer: Sealer,
  addresses: { role: string; address: string }[],
  actions: Record<Level, AddressAction>,
  wallets: WalletIndexes,
): Promise<{ addresses: Screening['addresses']; outcome: NonNullable<Screening['address_outcome']> }> {
  const out: Screening['addresses'] = [];
  let action: AddressAction = 'proceed';
  let level: Level | null = null;
  for (const { role, address } of addresses) {
    let entry: Screening['addresses'][number];
    try {
      const s = await screenAddressFor(ctx, sealer, { address }, wallets);
      entry = {
        role,
        address,
        valid: s.valid,
        chains: s.valid ? [s.chain!, ...s.candidate_chains.filter((c) => c !== s.chain)] : [],
        reason: s.reason,
        wallet_screening: s.valid ? 'screened' : 'invalid',
        level: s.level,
        score: s.score,
        findings: s.findings,
        list_versions: s.list_versions,
        action: s.valid ? actions[s.level!] : 'hold',
      };
    } catch (err) {
      // A screening that could not run (no list loaded, a database error) is not "low risk".
      entry = {
        role,
        address,
        valid: true,
        chains: [],
        reason: (err as Error).message,
        wallet_screening: 'error',
        level: null,
        score: null,
        findings: [],
        list_versions: {},
        action: 'hold',
      };
    }
    out.push(entry);
    if (ACTION_RANK[entry.action] > ACTION_RANK[action]) action = entry.action;
    if (entry.level && (level === null || LEVEL_RANK[entry.level] > LEVEL_RANK[level])) level = entry.level;
  }
  return { addresses: out, outcome: { level, action } };
}

/** One line naming the worst addresses, for the rejection message, the trail note and the alert title. */
export function describeOutcome(addresses: Screening['addresses']): string {
  const worst = addresses
    .filter((a) => a.action !== 'proceed')
    .map((a) => {
      const cats = [...new Set(a.findings.map((f) => `${f.category} ${f.exposure}`))].join(', ');
      return a.wallet_screening === 'screened'
        ? `${a.role} address ${a.address}: ${a.level}${cats ? ` (${cats})` : ''}`
        : `${a.role} address ${a.address}: ${a.wallet_screening}${a.reason ? ` (${a.reason})` : ''}`;
    });
  return worst.join('; ').slice(0, 900);
}
