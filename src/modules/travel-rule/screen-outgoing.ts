import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import type { Queryable } from '../../platform/db.js';
import type { IdentityPayload } from '../../engines/travel-rule/index.js';
import { raiseAlert } from '../cases/index.js';
import type { WalletIndexes } from '../wallets/index.js';
import { addressActions, describeOutcome, messageAddresses, screenMessageAddresses } from './address-screening.js';
import { settingsRows, type MessageRow } from './repository.js';
import type { TravelRuleMessage } from './schemas.js';

type Screening = NonNullable<TravelRuleMessage['screening']>;

/**
 * The wallet screening of an outgoing message's addresses (the originator's, our customer's, and the
 * beneficiary's account numbers and deposit address), before it is sent. Names are not screened here:
 * the originator is our customer, screened at onboarding.
 */
export async function screenOutgoing(
  ctx: RequestContext,
  sealer: Sealer,
  payload: IdentityPayload,
  destinationAddress: string | null,
  wallets: WalletIndexes,
): Promise<Screening> {
  const actions = addressActions(await settingsRows.get(ctx.db, ctx));
  const r = await screenMessageAddresses(ctx, sealer, messageAddresses(payload, destinationAddress), actions, wallets);
  return {
    status: 'not_screened',
    names: [],
    lists: [],
    addresses: r.addresses,
    address_outcome: r.outcome,
    screened_at: new Date().toISOString(),
  };
}

/** The travel_rule alert of an outgoing message held or canceled by its addresses' screening. */
export async function alertOutgoing(
  tx: Queryable,
  ctx: RequestContext,
  row: MessageRow,
  screening: Screening,
  notSending: boolean,
): Promise<void> {
  const outcome = screening.address_outcome!;
  const what = notSending ? 'flagged' : outcome.action === 'reject' ? 'canceled' : 'held';
  await raiseAlert(tx, ctx, {
    kind: 'travel_rule',
    severity: outcome.level === 'severe' || outcome.level === 'high' ? 'high' : 'medium',
    subjectType: 'travel_rule_message',
    subjectId: row.id,
    subjectReference: row.reference,
    title: `Outgoing Travel Rule message ${what}: ${describeOutcome(screening.addresses)}`.slice(0, 300),
    details: {
      reason: `wallet_screening_${outcome.level ?? 'invalid'}`,
      request_identifier: row.request_identifier,
      addresses: screening.addresses
        .filter((a) => a.action !== 'proceed')
        .map((a) => ({ role: a.role, address: a.address, level: a.level, wallet_screening: a.wallet_screening, action: a.action })),
    },
    dedupeKey: `screening:${row.request_identifier}`,
  });
}
