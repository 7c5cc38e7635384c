import type { RequestContext } from '../../platform/context.js';
import type { UrlPolicy } from '../../platform/net-guard.js';
import { conflict } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { nextState } from '../../engines/travel-rule/index.js';
import { readRejectionComment, type TrpConfirmation, type TrpResolution } from '../../providers/travel-rule/index.js';
import { checkPeerUrl } from './ivms.js';
import { move } from './move.js';
import { messageRows, type MessageRow } from './repository.js';

/** Our request-repair travels as a TRP rejection whose comment starts with this marker (TRP has no repair message). */
export const REPAIR_MARKER = 'repair: ';

/**
 * The beneficiary VASP's resolution of our outgoing message, as the TRP callback (or the inquiry's
 * synchronous answer) carries it: approved → accepted (with the deposit address and the confirmation
 * callback), rejected → rejected (code and retry hint read back from the comment), a rejection marked
 * as a repair request → repair_requested. A repeated resolution that changes nothing is accepted as is.
 */
export async function applyResolution(
  ctx: RequestContext,
  production: UrlPolicy,
  messageId: string,
  r: TrpResolution,
): Promise<MessageRow | null> {
  if (r.kind === 'acknowledged') return null;
  // An answer from the email fallback's page has no callback (nothing to confirm to over TRP).
  if (r.kind === 'approved' && r.callback) checkPeerUrl(r.callback, 'callback', ctx.environment, production);
  return withTransaction(ctx, async (tx) => {
    const row = await messageRows.get(tx, ctx, messageId, true);
    if (!row || row.direction !== 'outgoing') return null;
    if (r.kind === 'approved') {
      if (row.status === 'accepted' && row.destination_address === r.address) return row;
      return move(tx, ctx, row, 'accept', {
        by: 'counterparty',
        patch: { destination_address: r.address, peer_callback_url: r.callback || null },
      });
    }
    const repair = r.comment.startsWith(REPAIR_MARKER);
    const read = readRejectionComment(repair ? r.comment.slice(REPAIR_MARKER.length) : r.comment);
    const action = repair ? 'request_repair' : 'reject';
    if (row.status === nextState('outgoing', 'sent', action) && row.rejection?.message === read.message) return row;
    const rejection = {
      code: read.code ?? (repair ? 'missing_fields' : 'rejected'),
      message: read.message,
      retryable: repair ? true : (read.retryable ?? false),
      kind: repair ? ('repair_requested' as const) : ('rejected' as const),
    };
    return move(tx, ctx, row, action, { by: 'counterparty', patch: { rejection }, note: r.comment.slice(0, 500) });
  });
}

/** The originator's confirmation of a message we accepted: txid → completed, canceled → canceled. */
export async function applyConfirmation(ctx: RequestContext, messageId: string, c: TrpConfirmation): Promise<MessageRow | null> {
  return withTransaction(ctx, async (tx) => {
    const row = await messageRows.get(tx, ctx, messageId, true);
    if (!row || row.direction !== 'incoming') return null;
    if (c.kind === 'txid') {
      if (row.status === 'completed' && row.tx_hash === c.txid) return row;
      if (row.status === 'completed') throw conflict('The transfer was already confirmed with another transaction hash.', 'txid');
      return move(tx, ctx, row, 'confirm', { by: 'counterparty', patch: { tx_hash: c.txid } });
    }
    if (row.status === 'canceled') return row;
    return move(tx, ctx, row, 'cancel', { by: 'counterparty', note: c.comment.slice(0, 500) });
  });
}
