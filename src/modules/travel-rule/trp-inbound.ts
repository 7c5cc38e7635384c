import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleOptions } from '../../platform/app-types.js';
import { systemContext, type RequestContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { withTransaction } from '../../platform/transaction.js';
import { decideThreshold, INITIAL_STATE } from '../../engines/travel-rule/index.js';
import {
  handleTrpRequest,
  TRP_API_VERSION,
  type TrpError,
  type TrpInboundKind,
  type TrpInquiry,
} from '../../providers/travel-rule/index.js';
import { beneficiaryName, originatorName } from './ivms.js';
import { announce, move } from './move.js';
import { applyConfirmation, applyResolution } from './peer-moves.js';
import { counterpartyRows, messageRows, sealIvms, settingsRows, type MessageRow } from './repository.js';
import { enqueueScreening } from './screen-message.js';

type Sealer = ModuleOptions['deps']['sealer'];

/**
 * The TRP receiver, outside /v1 (peers do not hold API keys):
 *   POST /trp/{secret}/transfers            an inquiry for this environment (the travel address points here)
 *   POST /trp/callbacks/{token}/resolve     the beneficiary's resolution of a message we sent
 *   POST /trp/callbacks/{token}/confirm     the originator's confirmation of a message we accepted
 *   GET  /trp/{secret}/identity | /version  TRP discovery
 * The inquiry route answers only where the environment enabled it (PATCH /v1/travel-rule/settings; off by
 * default); its path secret identifies the environment. Callbacks are capability URLs made per message.
 * Mutual TLS, which TRP uses to authenticate VASPs, belongs to the TLS terminator in front of Verity.
 */
export const trpInboundModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const { db, sealer, config } = opts.deps;
  const production = { requireHttps: config.webhooks.requireHttps, allowPrivateNetworks: config.webhooks.allowPrivateNetworks };
  // The raw bytes reach the TRP parser (a raw-body route), so an amount is read digit for digit (no float on the way).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  const hidden = { config: { public: true }, schema: { hide: true } } as const;

  const refuse = (reply: FastifyReply, req: FastifyRequest, e: TrpError, headers: Record<string, string> = {}) =>
    reply
      .code(e.status)
      .headers(headers)
      .send({
        error: { code: 'invalid_request', message: e.message, field: null, request_id: req.id },
        ...(e.issues ? { issues: e.issues } : {}),
      });
  const notFound = (reply: FastifyReply, req: FastifyRequest) =>
    reply.code(404).send({ error: { code: 'not_found', message: 'No TRP receiver here.', field: null, request_id: req.id } });

  async function tenantOf(secret: string): Promise<RequestContext | null> {
    const s = await settingsRows.bySecret(db, secret);
    if (!s || !s.inbound_trp_enabled) return null;
    return { ...systemContext(db, s.account_id, s.environment), actor: { type: 'system', id: 'trp_peer' } };
  }

  function parse(kind: TrpInboundKind, req: FastifyRequest) {
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    return handleTrpRequest(kind, { headers: req.headers, body });
  }

  app.post<{ Params: { secret: string } }>('/trp/:secret/transfers', hidden, async (req, reply) => {
    const h = parse('inquiry', req);
    if (!h.ok) return refuse(reply, req, h.error, h.responseHeaders);
    const ctx = await tenantOf(req.params.secret);
    if (!ctx) return notFound(reply, req);
    if (h.message.kind !== 'inquiry') return notFound(reply, req);
    const inquiry = h.message.inquiry;
    const cp = await counterpartyRows.byHost(db, ctx, inquiry.callback);
    if (cp?.due_diligence_status === 'blocked')
      return refuse(reply, req, { status: 400, message: 'rejected: counterparty blocked' }, h.responseHeaders);
    await receiveInquiry(
      { ...ctx, requestId: req.id },
      sealer,
      inquiry,
      h.requestIdentifier,
      [...h.warnings, ...(cp ? [] : ['counterparty_vasp_unknown'])],
      cp?.id ?? null,
    );
    return reply.headers(h.responseHeaders).send({ version: TRP_API_VERSION });
  });

  for (const what of ['resolve', 'confirm'] as const) {
    app.post<{ Params: { token: string } }>(`/trp/callbacks/:token/${what}`, hidden, async (req, reply) => {
      const h = parse(what === 'resolve' ? 'resolution' : 'confirmation', req);
      if (!h.ok) return refuse(reply, req, h.error, h.responseHeaders);
      const row = await messageRows.byCallbackToken(db, req.params.token);
      if (!row || row.direction !== (what === 'resolve' ? 'outgoing' : 'incoming')) return notFound(reply, req);
      if (row.request_identifier !== h.requestIdentifier)
        return refuse(reply, req, { status: 400, message: 'request-identifier does not match the transfer' }, h.responseHeaders);
      const ctx: RequestContext = {
        ...systemContext(db, row.account_id, row.environment, req.id),
        actor: { type: 'system', id: 'trp_peer' },
      };
      try {
        if (h.message.kind === 'resolution') await applyResolution(ctx, production, row.id, h.message.resolution);
        else if (h.message.kind === 'confirmation') await applyConfirmation(ctx, row.id, h.message.confirmation);
      } catch (err) {
        if (err instanceof AppError)
          return reply
            .code(err.status)
            .headers(h.responseHeaders)
            .send({ error: { code: err.code, message: err.message, field: err.field, request_id: req.id } });
        throw err;
      }
      return reply.headers(h.responseHeaders).code(200).send({});
    });
  }

  app.get<{ Params: { secret: string } }>('/trp/:secret/version', hidden, async (req, reply) => {
    if (!(await tenantOf(req.params.secret))) return notFound(reply, req);
    return { version: TRP_API_VERSION, vendor: 'Verity' };
  });
  app.get<{ Params: { secret: string } }>('/trp/:secret/identity', hidden, async (req, reply) => {
    const ctx = await tenantOf(req.params.secret);
    if (!ctx) return notFound(reply, req);
    const s = (await settingsRows.get(db, ctx))!;
    return { name: s.vasp_name ?? '', ...(s.vasp_lei ? { lei: s.vasp_lei } : {}) };
  });
};

/**
 * Records an inquiry as an incoming message (received) and queues its screening. The same
 * request-identifier again: a repaired message when we had asked for a repair (receive moves it back to
 * received), a redelivery otherwise (nothing changes).
 */
async function receiveInquiry(
  ctx: RequestContext,
  sealer: Sealer,
  inquiry: TrpInquiry,
  requestIdentifier: string,
  warnings: string[],
  counterpartyId: string | null,
): Promise<MessageRow> {
  return withTransaction(ctx, async (tx) => {
    const existing = await messageRows.byRequest(tx, ctx, 'incoming', requestIdentifier, true);
    const fields = {
      ivms101_sealed: sealIvms(sealer, inquiry.ivms101),
      originator_name: originatorName(inquiry.ivms101),
      beneficiary_name: beneficiaryName(inquiry.ivms101),
      peer_callback_url: inquiry.callback,
      warnings,
    };
    if (existing) {
      if (existing.status !== 'repair_requested') return existing;
      const row = await move(tx, ctx, existing, 'receive', { by: 'counterparty', patch: { ...fields, rejection: null }, note: 'repaired' });
      await enqueueScreening(tx, ctx, row.id);
      return row;
    }
    // The amount is in the asset's unit, which no threshold is stated in: recorded as required (fail safe).
    const decision = decideThreshold('FATF', { value: inquiry.amount, currency: '' });
    const row = await messageRows.insert(tx, ctx, {
      id: newId('travelRuleMessage'),
      direction: 'incoming',
      status: INITIAL_STATE.incoming,
      protocol: 'trp',
      counterparty_id: counterpartyId,
      request_identifier: requestIdentifier,
      travel_address: null,
      endpoint_url: null,
      callback_token_sealed: null,
      callback_token_hash: null,
      asset: {
        ...(inquiry.asset.dti ? { dti: inquiry.asset.dti } : {}),
        ...(inquiry.asset.slip0044 !== undefined ? { slip0044: Number(inquiry.asset.slip0044) } : {}),
      },
      amount: inquiry.amount,
      amount_fiat: null,
      threshold_applied: { ...decision.thresholdApplied, outcome: decision.outcome, reason: decision.reason },
      destination_address: null,
      reference: null,
      ...fields,
    });
    await messageRows.trail(tx, ctx, row.id, null, row.status, 'create', null);
    await announce(tx, ctx, row, null, 'receive', 'counterparty', null);
    await enqueueScreening(tx, ctx, row.id);
    return row;
  });
}
