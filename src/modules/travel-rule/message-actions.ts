import { randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { RequestContext } from '../../platform/context.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { rejectCode, type IdentityPayload, type MessageAction } from '../../engines/travel-rule/index.js';
import type { MessageDeps } from './create-message.js';
import { beneficiaryName, checkIvms101, originatorName } from './ivms.js';
import { move, type DeliveryKind } from './move.js';
import { messageRows, openIvms, sealIvms, sealToken, sha256, toMessage, type MessagePatch, type MessageRow } from './repository.js';
import type { AcceptBody, CancelBody, ConfirmBody, NoteBody, RejectBody, RepairBody, SendBody, TravelRuleMessage } from './schemas.js';

export type ActionInput =
  | { action: 'send'; body: Static<typeof SendBody> }
  | { action: 'review'; body: Static<typeof NoteBody> }
  | { action: 'accept'; body: Static<typeof AcceptBody> }
  | { action: 'reject'; body: Static<typeof RejectBody> }
  | { action: 'request_repair'; body: Static<typeof RepairBody> }
  | { action: 'confirm'; body: Static<typeof ConfirmBody> }
  | { action: 'cancel'; body: Static<typeof CancelBody> };

/** On TRP messages these are the counterparty's moves: they arrive over TRP, never through the API. */
const PEER_ACTIONS: Record<MessageRow['direction'], MessageAction[]> = {
  outgoing: ['accept', 'reject', 'request_repair'],
  incoming: ['confirm'],
};

/** What an action changes on the row besides the status, and which TRP message it sends. */
function effects(row: MessageRow, deps: MessageDeps, a: ActionInput): { patch: MessagePatch; note: string | null; deliver?: DeliveryKind } {
  switch (a.action) {
    case 'send': {
      if (row.direction !== 'outgoing') throw conflict('Only an outgoing message is sent.', 'status');
      const patch: MessagePatch = { rejection: null };
      if (a.body.ivms101) {
        const { payload } = checkIvms101(a.body.ivms101, 'ivms101', 'strict');
        Object.assign(patch, {
          ivms101_sealed: sealIvms(deps.sealer, payload),
          originator_name: originatorName(payload),
          beneficiary_name: beneficiaryName(payload),
        });
      }
      return { patch, note: a.body.note ?? (row.status === 'repair_requested' ? 'repaired' : null), deliver: 'inquiry' };
    }
    case 'review':
      return { patch: {}, note: a.body.note ?? null };
    case 'accept': {
      const patch: MessagePatch = { destination_address: a.body.destination_address };
      if (a.body.beneficiary) {
        const merged = { ...(openIvms(deps.sealer, row) as IdentityPayload), beneficiary: a.body.beneficiary } as unknown;
        // Lenient: the originator's part came from the counterparty (a bad LEI check digit there is a warning).
        const { payload } = checkIvms101(merged, 'beneficiary', 'lenient');
        Object.assign(patch, { ivms101_sealed: sealIvms(deps.sealer, payload), beneficiary_name: beneficiaryName(payload) });
      }
      if (row.direction === 'incoming' && row.protocol === 'trp') {
        // The capability the originator confirms to (our /confirm callback), made now that there is one.
        const token = randomBytes(32).toString('base64url');
        Object.assign(patch, { callback_token_sealed: sealToken(deps.sealer, token), callback_token_hash: sha256(token) });
      }
      return { patch, note: a.body.note ?? null, deliver: 'resolution' };
    }
    case 'reject': {
      const known = rejectCode(a.body.code)!;
      const rejection = {
        code: known.code,
        message: a.body.message,
        retryable: a.body.retry ?? known.retryable,
        kind: 'rejected' as const,
      };
      return { patch: { rejection }, note: `${known.code}: ${a.body.message}`, deliver: 'resolution' };
    }
    case 'request_repair': {
      const code = a.body.code ?? 'missing_fields';
      return {
        patch: { rejection: { code, message: a.body.message, retryable: true, kind: 'repair_requested' } },
        note: `${code}: ${a.body.message}`,
        deliver: 'resolution',
      };
    }
    case 'confirm':
      return { patch: { tx_hash: a.body.tx_hash }, note: null, deliver: 'confirmation' };
    case 'cancel':
      // A TRP cancellation goes to the beneficiary's approval callback, which exists once it accepted.
      return {
        patch: {},
        note: a.body.reason,
        ...(row.direction === 'outgoing' && row.peer_callback_url ? { deliver: 'confirmation' as const } : {}),
      };
  }
}

/**
 * POST /v1/travel-rule/messages/{id}/{action}: one lifecycle move with its trail row, audit row,
 * travel_rule.status_changed event and, for TRP messages, the protocol message in the outbox.
 * Illegal moves are 409 conflict.
 */
export async function actOnMessage({
  ctx,
  deps,
  id,
  input,
}: {
  ctx: RequestContext;
  deps: MessageDeps;
  id: string;
  input: ActionInput;
}): Promise<TravelRuleMessage> {
  return withTransaction(ctx, async (tx) => {
    const row = await messageRows.get(tx, ctx, id, true);
    if (!row) throw notFound('travel_rule_message', 'id');
    if (row.protocol !== 'manual' && PEER_ACTIONS[row.direction].includes(input.action))
      throw conflict(`On a ${row.protocol} message, ${input.action.replace('_', ' ')} comes from the counterparty.`, 'status');
    if (input.action === 'accept' && row.direction === 'outgoing' && !input.body.destination_address)
      throw invalid('destination_address', 'required');
    const e = effects(row, deps, input);
    const after = await move(tx, ctx, row, input.action, {
      by: 'api',
      patch: e.patch,
      note: e.note,
      ...(e.deliver ? { deliver: e.deliver } : {}),
    });
    return toMessage(after, deps.sealer, await messageRows.transitionsOf(tx, ctx, id));
  });
}
