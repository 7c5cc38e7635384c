import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import type { UrlPolicy } from '../../platform/net-guard.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { withTransaction } from '../../platform/transaction.js';
import { decideThreshold, decodeTravelAddress, INITIAL_STATE, TravelAddressError } from '../../engines/travel-rule/index.js';
import { newRequestIdentifier } from '../../providers/travel-rule/index.js';
import { announce, move } from './move.js';
import { beneficiaryName, checkIvms101, checkPeerUrl, originatorName } from './ivms.js';
import { counterpartyRows, messageRows, sealIvms, sealToken, sha256, toMessage, type CounterpartyRow } from './repository.js';
import { enqueueScreening } from './screen-message.js';
import { alertOutgoing, screenOutgoing } from './screen-outgoing.js';
import { describeOutcome } from './address-screening.js';
import type { CreateMessage, TravelRuleMessage } from './schemas.js';
import type { WalletIndexes } from '../wallets/index.js';

export interface MessageDeps {
  sealer: Sealer;
  production: UrlPolicy;
  /** The process's wallet indexes (resources.get(WALLET_INDEXES)): an outgoing message's addresses are screened. */
  wallets: () => WalletIndexes;
}

/** Where an outgoing TRP inquiry goes: the travel address's URL, or the counterparty's TRP endpoint. */
async function resolveEndpoint(
  ctx: RequestContext,
  deps: MessageDeps,
  input: CreateMessage,
  counterparty: CounterpartyRow | null,
): Promise<{ url: string; counterparty: CounterpartyRow | null }> {
  if (input.travel_address) {
    let decoded: string;
    try {
      decoded = decodeTravelAddress(input.travel_address);
    } catch (err) {
      if (err instanceof TravelAddressError) throw invalid('travel_address', err.message);
      throw err;
    }
    const cp = counterparty ?? (await counterpartyRows.byHost(ctx.db, ctx, `https://${decoded}`));
    // Travel addresses carry no scheme: https, unless the counterparty registered a plain-http endpoint on that host (a sandbox peer).
    const host = new URL(`https://${decoded}`).host;
    const plain = cp?.protocols.some((p) => p.protocol === 'trp' && p.endpoint?.startsWith(`http://${host}`));
    const url = `${plain ? 'http' : 'https'}://${decoded}`;
    checkPeerUrl(url, 'travel_address', ctx.environment, deps.production);
    return { url, counterparty: cp };
  }
  const endpoint = counterparty?.protocols.find((p) => p.protocol === 'trp' && p.endpoint)?.endpoint;
  if (!endpoint)
    throw invalid('travel_address', 'An outgoing TRP message needs a travel_address or a counterparty_id with a TRP endpoint.');
  checkPeerUrl(endpoint, 'counterparty_id', ctx.environment, deps.production);
  return { url: endpoint, counterparty };
}

/**
 * POST /v1/travel-rule/messages: an outgoing message (validated strictly, then saved below the
 * jurisdiction's threshold, sent over TRP through the outbox, or kept as a draft) or an incoming one
 * received by other means (protocol manual; validated leniently, then screened by a job).
 */
export async function createMessage({
  ctx,
  deps,
  input,
}: {
  ctx: RequestContext;
  deps: MessageDeps;
  input: CreateMessage;
}): Promise<TravelRuleMessage> {
  const direction = input.direction ?? 'outgoing';
  const protocol = input.protocol ?? (direction === 'outgoing' ? 'trp' : 'manual');
  if (direction === 'incoming' && protocol !== 'manual')
    throw invalid(
      'protocol',
      'Incoming TRP messages arrive at the TRP receiver; record a message received by other means with protocol manual.',
    );
  if (direction === 'outgoing' && input.request_identifier)
    throw invalid('request_identifier', 'An outgoing message gets its own request identifier.');
  if (input.asset.dti === undefined && input.asset.slip0044 === undefined) throw invalid('asset', 'Give asset.dti or asset.slip0044.');
  if (/^0*(\.0*)?$/.test(input.amount)) throw invalid('amount', 'The amount must be positive.');
  const { payload, warnings } = checkIvms101(input.ivms101, 'ivms101', direction === 'outgoing' ? 'strict' : 'lenient');

  let counterparty: CounterpartyRow | null = null;
  if (input.counterparty_id) {
    counterparty = await counterpartyRows.get(ctx.db, ctx, input.counterparty_id);
    if (!counterparty) throw notFound('counterparty', 'counterparty_id');
  }
  const decision = decideThreshold(
    input.jurisdiction ?? 'FATF',
    input.amount_fiat ?? { value: input.amount, currency: input.asset.symbol ?? '' },
  );
  let endpoint: string | null = null;
  if (direction === 'outgoing' && protocol === 'trp' && decision.outcome === 'required') {
    const r = await resolveEndpoint(ctx, deps, input, counterparty);
    endpoint = r.url;
    counterparty = r.counterparty;
  }
  if (direction === 'outgoing' && protocol === 'email') {
    const email = counterparty?.protocols.find((p) => p.protocol === 'email' && p.email)?.email;
    if (!email) throw invalid('counterparty_id', 'The email fallback needs a counterparty_id whose protocols include an email entry.');
    endpoint = `mailto:${email}`;
  }
  if (direction === 'outgoing' && counterparty?.due_diligence_status === 'blocked')
    throw conflict('The counterparty is blocked by due diligence: nothing is sent to it.', 'counterparty_id');
  const token = direction === 'outgoing' && protocol !== 'manual' ? randomBytes(32).toString('base64url') : null;
  // Outgoing: every address is wallet-screened before anything is sent (outside the transaction: it reads indexes only).
  const screening =
    direction === 'outgoing' ? await screenOutgoing(ctx, deps.sealer, payload, input.destination_address ?? null, deps.wallets()) : null;

  return withTransaction(ctx, async (tx) => {
    const requestIdentifier = input.request_identifier ?? newRequestIdentifier();
    if (direction === 'incoming' && (await messageRows.byRequest(tx, ctx, 'incoming', requestIdentifier)))
      throw conflict('An incoming message with this request_identifier exists.', 'request_identifier');
    let row = await messageRows.insert(tx, ctx, {
      id: newId('travelRuleMessage'),
      direction,
      status: INITIAL_STATE[direction],
      protocol,
      counterparty_id: counterparty?.id ?? null,
      request_identifier: requestIdentifier,
      travel_address: input.travel_address ?? null,
      endpoint_url: endpoint,
      peer_callback_url: null,
      callback_token_sealed: token ? sealToken(deps.sealer, token) : null,
      callback_token_hash: token ? sha256(token) : null,
      asset: input.asset,
      amount: input.amount,
      amount_fiat: input.amount_fiat ?? null,
      threshold_applied: { ...decision.thresholdApplied, outcome: decision.outcome, reason: decision.reason },
      ivms101_sealed: sealIvms(deps.sealer, payload),
      originator_name: originatorName(payload),
      beneficiary_name: beneficiaryName(payload),
      destination_address: input.destination_address ?? null,
      warnings,
      reference: input.reference ?? null,
    });
    await messageRows.trail(tx, ctx, row.id, null, row.status, 'create', null);
    await announce(tx, ctx, row, null, direction === 'incoming' ? 'receive' : 'create', 'api', null);
    const action = screening?.address_outcome?.action ?? 'proceed';
    if (screening) {
      await messageRows.setAside(tx, ctx, row.id, { screening });
      row = { ...row, screening };
      if (action !== 'proceed') await alertOutgoing(tx, ctx, row, screening, decision.outcome === 'saved' || input.send === false);
    }
    if (decision.outcome === 'saved') {
      row = await move(tx, ctx, row, 'save', { by: 'api', note: `${decision.reason} (${decision.thresholdApplied.jurisdiction})` });
    } else if (direction === 'outgoing' && input.send !== false && action === 'reject') {
      row = await move(tx, ctx, row, 'cancel', { by: 'system', note: `wallet screening: ${describeOutcome(screening!.addresses)}` });
    } else if (direction === 'outgoing' && input.send !== false && action === 'hold') {
      // Held as a draft: a person reviews the alert and sends (POST …/send) or cancels it.
      await messageRows.trail(
        tx,
        ctx,
        row.id,
        row.status,
        row.status,
        'hold',
        `wallet screening: ${describeOutcome(screening!.addresses)}`,
      );
    } else if (direction === 'outgoing' && input.send !== false) {
      row = await move(tx, ctx, row, 'send', { by: 'api', deliver: 'inquiry' });
    } else if (direction === 'incoming') {
      await enqueueScreening(tx, ctx, row.id);
    }
    return toMessage(row, deps.sealer, await messageRows.transitionsOf(tx, ctx, row.id));
  });
}
