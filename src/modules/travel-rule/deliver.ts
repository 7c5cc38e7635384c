import type { Db } from '../../platform/db.js';
import { systemContext, type Environment } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import type { JobHandler, JobRow } from '../../platform/jobs.js';
import { checkDestinationUrl, checkResolvedHost, type UrlPolicy } from '../../platform/net-guard.js';
import { QUEUES } from '../../platform/queues.js';
import type { IdentityPayload } from '../../engines/travel-rule/index.js';
import {
  createTrpClient,
  rejectionComment,
  TrpClientError,
  type TrpClient,
  type TrpConfirmation,
  type TrpResolution,
} from '../../providers/travel-rule/index.js';
import { MessagingError, type MessagingProvider } from '../../providers/messaging/index.js';
import { peerPolicy } from './ivms.js';
import type { DeliveryKind } from './move.js';
import { applyResolution, REPAIR_MARKER } from './peer-moves.js';
import { messageRows, openIvms, openToken, type MessageRow } from './repository.js';

export interface DeliveryDeps {
  db: Db;
  sealer: () => Sealer;
  /** Where peers reach this instance's TRP callbacks (PUBLIC_BASE_URL). */
  publicBaseUrl: () => string;
  production: () => UrlPolicy;
  client?: TrpClient;
  /** The SMTP provider of the email fallback, when configured. */
  email?: () => MessagingProvider | null;
}

type Payload = { account_id: string; environment: Environment; message_id: string; kind: DeliveryKind; status: string };

export const callbackUrl = (base: string, token: string, what: 'resolve' | 'confirm') =>
  `${base.replace(/\/+$/, '')}/trp/callbacks/${token}/${what}`;

/** Which TRP message a delivery posts, from the message as it is now. */
function outgoingMessage(row: MessageRow, deps: DeliveryDeps, sealer: Sealer, cancelNote: string | null) {
  const token = openToken(sealer, row);
  const base = deps.publicBaseUrl();
  return {
    resolution(): TrpResolution {
      if (row.status === 'accepted')
        return { kind: 'approved', address: row.destination_address!, callback: callbackUrl(base, token!, 'confirm') };
      const r = row.rejection!;
      const comment = rejectionComment(r.code, r.message);
      return { kind: 'rejected', comment: r.kind === 'repair_requested' ? REPAIR_MARKER + comment : comment };
    },
    confirmation(): TrpConfirmation {
      return row.status === 'completed' ? { kind: 'txid', txid: row.tx_hash! } : { kind: 'canceled', comment: cancelNote ?? 'canceled' };
    },
  };
}

/**
 * Job travel_rule.deliver: posts one TRP message (the inquiry, our resolution, our confirmation) for
 * the status the message had when it was queued; a message that moved on since is left alone.
 * Transient failures (network, 5xx, 408/425/429) throw, so the job runner retries with backoff;
 * permanent ones (4xx, a refused address) are recorded on the message for a reviewer and not retried.
 */
export function deliveryJobHandler(deps: DeliveryDeps): JobHandler {
  const client = deps.client ?? createTrpClient();
  return async (job: JobRow) => {
    const p = job.payload as unknown as Payload;
    const ctx = systemContext(deps.db, p.account_id, p.environment, `job:${QUEUES.travelRuleDeliver}`);
    const row = await messageRows.get(deps.db, ctx, p.message_id);
    if (!row || row.status !== p.status || row.protocol === 'manual') return;
    const sealer = deps.sealer();
    const record = (state: 'delivered' | 'failed' | 'pending', lastError: string | null) =>
      messageRows.setAside(deps.db, ctx, row.id, {
        delivery: {
          state,
          kind: p.kind,
          attempts: job.attempts,
          last_error: lastError,
          delivered_at: state === 'delivered' ? new Date().toISOString() : null,
        },
      });
    if (row.protocol === 'email') {
      // The email fallback: a link to the hosted page where the beneficiary VASP answers; no personal data in the mail.
      const mailer = deps.email?.() ?? null;
      const to = row.endpoint_url?.replace(/^mailto:/, '') ?? '';
      try {
        if (!mailer) throw new MessagingError('none', 'permanent', 'not_configured', 'no email provider: set SMTP_URL and SMTP_FROM');
        const link = `${deps.publicBaseUrl().replace(/\/+$/, '')}/travel-rule/respond/${openToken(sealer, row)}`;
        await mailer.send({
          to,
          subject: `Travel Rule request ${row.request_identifier}`,
          text: `A VASP asks for your Travel Rule answer on an incoming transfer of ${row.amount} ${row.asset.symbol ?? ''}.\n\nOpen this link to see the originator data and approve (with your deposit address) or reject:\n${link}\n\nThe link is personal to this transfer; do not forward it.\n`,
        });
        await record('delivered', null);
      } catch (err) {
        const e = err instanceof MessagingError ? err : new MessagingError('smtp', 'transient', 'error', (err as Error).message);
        const retry = e.kind === 'transient' && job.attempts < job.max_attempts;
        await record(retry ? 'pending' : 'failed', e.message.slice(0, 500));
        if (retry) throw e;
      }
      return;
    }
    try {
      const url = p.kind === 'inquiry' ? row.endpoint_url : row.peer_callback_url;
      if (!url) throw new TrpClientError(`no ${p.kind === 'inquiry' ? 'endpoint' : 'callback'} to post the ${p.kind} to`, 'permanent');
      const policy = peerPolicy(p.environment, deps.production());
      const problem = checkDestinationUrl(url, policy) ?? (await checkResolvedHost(url, policy.allowPrivateNetworks));
      if (problem) throw new TrpClientError(problem, 'permanent');
      if (p.kind === 'inquiry') {
        const token = openToken(sealer, row)!;
        const answer = await client.inquire(
          url,
          {
            asset: {
              ...(row.asset.dti ? { dti: row.asset.dti } : {}),
              ...(row.asset.slip0044 !== undefined ? { slip0044: row.asset.slip0044 } : {}),
            },
            amount: row.amount,
            callback: callbackUrl(deps.publicBaseUrl(), token, 'resolve'),
            ivms101: openIvms(sealer, row) as IdentityPayload,
          },
          row.request_identifier,
        );
        await record('delivered', null);
        // A peer may answer the inquiry with its resolution at once.
        // (A conflicting answer is not a delivery failure: the inquiry is not sent again.)
        if (answer.kind !== 'acknowledged') await applyResolution(ctx, deps.production(), row.id, answer).catch(() => null);
        return;
      }
      const trail = p.kind === 'confirmation' && row.status === 'canceled' ? await messageRows.transitionsOf(deps.db, ctx, row.id) : [];
      const msg = outgoingMessage(row, deps, sealer, trail.at(-1)?.note ?? null);
      if (p.kind === 'resolution') await client.resolve(url, msg.resolution(), row.request_identifier);
      else await client.confirm(url, msg.confirmation(), row.request_identifier);
      await record('delivered', null);
    } catch (err) {
      const e = err instanceof TrpClientError ? err : new TrpClientError((err as Error).message, 'transient');
      const retry = e.kind === 'transient' && job.attempts < job.max_attempts;
      await record(retry ? 'pending' : 'failed', e.message.slice(0, 500));
      if (retry) throw e;
    }
  };
}
