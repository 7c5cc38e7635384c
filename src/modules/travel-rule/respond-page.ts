import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ModuleOptions } from '../../platform/app-types.js';
import { systemContext, type RequestContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { REJECT_CODES, type IdentityPayload } from '../../engines/travel-rule/index.js';
import { rejectionComment } from '../../providers/travel-rule/index.js';
import { applyResolution } from './peer-moves.js';
import { messageRows, openIvms, type MessageRow } from './repository.js';

/**
 * The email fallback's hosted page: the beneficiary VASP, holding the link from the email (a per-message
 * capability), sees the transfer and the originator data and approves (with the deposit address) or rejects
 * (with a reject code). Plain HTML forms, no script; the answer moves our outgoing message as a TRP
 * resolution would (by: counterparty).
 */
export const respondPageModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const { db, config } = opts.deps;
  const production = { requireHttps: config.webhooks.requireHttps, allowPrivateNetworks: config.webhooks.allowPrivateNetworks };
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  const hidden = { config: { public: true }, schema: { hide: true } } as const;
  const headers = {
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
  const page = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).headers(headers).type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Travel Rule request</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}dt{font-weight:600}form{margin:1rem 0;padding:1rem;border:1px solid #ccc}</style></head><body>${body}</body></html>`);

  async function load(token: string): Promise<MessageRow | null> {
    const row = await messageRows.byCallbackToken(db, token);
    return row && row.direction === 'outgoing' && row.protocol === 'email' ? row : null;
  }

  app.get<{ Params: { token: string } }>('/travel-rule/respond/:token', hidden, async (req, reply) => {
    const row = await load(req.params.token);
    if (!row) return page(reply, 404, '<h1>Not found</h1><p>This link is not valid.</p>');
    const p = openIvms(opts.deps.sealer, row) as IdentityPayload;
    const details = `<h1>Travel Rule request</h1><dl>
<dt>Asset and amount</dt><dd>${esc(row.amount)} ${esc(row.asset.symbol ?? row.asset.dti ?? `SLIP-0044 ${row.asset.slip0044}`)}</dd>
<dt>Originator</dt><dd>${esc(row.originator_name ?? '')}</dd>
<dt>Originator accounts</dt><dd>${esc((p.originator?.accountNumber ?? []).join(', '))}</dd>
<dt>Beneficiary</dt><dd>${esc(row.beneficiary_name ?? '')}</dd>
<dt>Reference</dt><dd>${esc(row.request_identifier)}</dd>
<dt>Status</dt><dd>${esc(row.status)}</dd></dl>`;
    if (row.status !== 'sent') return page(reply, 200, `${details}<p>This request has been answered.</p>`);
    const codes = [...REJECT_CODES.keys()].map((c) => `<option value="${c}">${c}</option>`).join('');
    return page(
      reply,
      200,
      `${details}
<form method="post"><input type="hidden" name="decision" value="approve"><label>Deposit address of the beneficiary <input name="address" required maxlength="200"></label> <button>Approve</button></form>
<form method="post"><input type="hidden" name="decision" value="reject"><label>Reason <select name="code">${codes}</select></label> <label>Message <input name="message" required maxlength="500"></label> <button>Reject</button></form>`,
    );
  });

  app.post<{ Params: { token: string } }>('/travel-rule/respond/:token', hidden, async (req, reply) => {
    const row = await load(req.params.token);
    if (!row) return page(reply, 404, '<h1>Not found</h1><p>This link is not valid.</p>');
    const form = new URLSearchParams(Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '');
    const decision = form.get('decision');
    const ctx: RequestContext = {
      ...systemContext(db, row.account_id, row.environment, req.id),
      actor: { type: 'system', id: 'email_counterparty' },
    };
    try {
      if (decision === 'approve') {
        const address = (form.get('address') ?? '').trim();
        if (!address || address.length > 200) return page(reply, 400, '<p>A deposit address is required.</p>');
        await applyEmailAnswer(ctx, production, row, { kind: 'approved', address });
      } else if (decision === 'reject') {
        const code = form.get('code') ?? '';
        const message = (form.get('message') ?? '').trim().slice(0, 500);
        if (!REJECT_CODES.has(code) || !message) return page(reply, 400, '<p>A reason and a message are required.</p>');
        await applyEmailAnswer(ctx, production, row, { kind: 'rejected', comment: rejectionComment(code, message) });
      } else return page(reply, 400, '<p>Approve or reject.</p>');
    } catch (err) {
      if (err instanceof AppError && err.code === 'conflict') return page(reply, 409, '<p>This request has already been answered.</p>');
      throw err;
    }
    return page(reply, 200, '<h1>Thank you</h1><p>Your answer has been recorded.</p>');
  });
};

/** The answer moves the message as a TRP resolution would; there is no callback to confirm to. */
async function applyEmailAnswer(
  ctx: RequestContext,
  production: { requireHttps: boolean; allowPrivateNetworks: boolean },
  row: MessageRow,
  r: { kind: 'approved'; address: string } | { kind: 'rejected'; comment: string },
): Promise<void> {
  if (row.status !== 'sent') throw new AppError('conflict', 'answered');
  const moved = await applyResolution(ctx, production, row.id, r.kind === 'approved' ? { ...r, callback: '' } : r);
  if (!moved) throw new AppError('conflict', 'answered');
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
