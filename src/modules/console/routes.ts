import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../platform/errors.js';
import { sendError } from '../../platform/http/error-handler.js';
import { pageSecurityHeaders } from '../capture/index.js';
import type { ConsoleAuth, LoginResult, Principal } from './service.js';
import { cookieName, crossSite, principalOf } from './gate.js';
import { EnvironmentBody, LoginBody, TotpBody } from './schemas.js';

const WEB_DIR = fileURLToPath(new URL('../../../web/console/', import.meta.url));
const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };
/** The console's modules and styles: every .js/.css/.svg file of web/console/ (no build step), read once at start. */
const ASSETS: Record<string, string> = Object.fromEntries(
  readdirSync(WEB_DIR)
    .filter((f) => /^[a-z0-9-]+\.(js|css|svg)$/.test(f))
    .map((f) => [f, TYPES[f.split('.').pop()!]!]),
);

/**
 * Libraries the console loads, served from their npm packages under /console/assets/ (no CDN, no
 * copy in web/console/): uPlot draws the usage and dashboard charts (docs/console.md).
 */
const resolve = createRequire(import.meta.url).resolve;
const VENDOR: Record<string, { path: string; type: string }> = {
  'uplot.js': { path: resolve('uplot/dist/uPlot.esm.js'), type: TYPES.js! },
  'uplot.css': { path: resolve('uplot/dist/uPlot.min.css'), type: TYPES.css! },
};

export interface ConsoleModuleOptions {
  auth: ConsoleAuth;
  publicBaseUrl: string;
}

const view = (p: Principal, csrf: string, reviewSlaHours: number) => ({
  operator: { id: p.operator.id, email: p.operator.email, role: p.operator.role, account: p.operator.account_id },
  environment: p.session.environment,
  scopes: p.scopes,
  csrf_token: csrf,
  expires_at: p.session.expires_at,
  review_sla_hours: reviewSlaHours,
});

/**
 * The console: its static page (web/console/) and its sign-in API under /console/api. Everything
 * else the console does goes through /v1 as the signed-in operator (src/modules/console/gate.ts).
 * Not part of the public API's OpenAPI document (docs/security.md describes these endpoints).
 */
export const consoleModule: FastifyPluginAsync<ConsoleModuleOptions> = async (app, opts) => {
  const { auth } = opts;
  const publicOrigin = new URL(opts.publicBaseUrl).origin;
  const name = cookieName(auth.settings.cookieSecure);
  const cookie = (value: string, maxAgeSeconds: number) =>
    `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${auth.settings.cookieSecure ? '; Secure' : ''}`;
  const html = readFileSync(WEB_DIR + 'index.html');
  const assets = Object.fromEntries([
    ...Object.keys(ASSETS).map((f) => [f, { type: ASSETS[f]!, bytes: readFileSync(WEB_DIR + f) }] as const),
    ...Object.entries(VENDOR).map(([f, v]) => [f, { type: v.type, bytes: readFileSync(v.path) }] as const),
  ]);
  const security = { ...pageSecurityHeaders(publicOrigin), 'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()' };
  const page = { config: { public: true }, schema: { hide: true } };
  const api = (body?: unknown) => ({ config: { public: true }, schema: { hide: true, ...(body ? { body } : {}) } });
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  const refuseCrossSite = (req: FastifyRequest, reply: FastifyReply) =>
    crossSite(req, publicOrigin)
      ? sendError(reply, req, 'unauthenticated', 'Cross-site requests are refused: the Origin is not this service.', 'Origin')
      : null;

  const answer = (reply: FastifyReply, result: LoginResult) => {
    noStore(reply);
    if (result.kind === 'totp_required') return { totp_required: true, challenge: result.challenge };
    reply.header('set-cookie', cookie(result.token, auth.settings.absoluteMinutes * 60));
    return view(result.principal, result.csrf, auth.settings.reviewSlaHours);
  };

  app.get('/console', page, async (_req, reply) =>
    reply.headers(security).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html),
  );
  // The router is strict about the trailing slash: /console/ (a bookmark, a typed address) goes to the page.
  app.get('/console/', page, async (_req, reply) => reply.header('cache-control', 'no-store').redirect('/console', 308));
  app.get<{ Params: { file: string } }>('/console/assets/:file', page, async (req, reply) => {
    const asset = Object.hasOwn(assets, req.params.file) ? assets[req.params.file] : undefined;
    if (!asset) throw notFound('asset');
    return reply.headers(security).header('cache-control', 'no-cache').type(asset.type).send(asset.bytes);
  });

  app.post<{ Body: LoginBody }>('/console/api/login', api(LoginBody), async (req, reply) => {
    const refused = refuseCrossSite(req, reply);
    if (refused) return refused;
    return answer(reply, await auth.login({ ...req.body, ip: req.ip }));
  });

  app.post<{ Body: TotpBody }>('/console/api/login/totp', api(TotpBody), async (req, reply) => {
    const refused = refuseCrossSite(req, reply);
    if (refused) return refused;
    return answer(reply, await auth.completeTotp({ ...req.body, ip: req.ip }));
  });

  app.get('/console/api/me', api(), async (req, reply) => {
    const who = await principalOf(auth, req, publicOrigin, { csrf: false });
    if (!who.ok) return sendError(reply, req, who.code, who.message, who.field);
    noStore(reply);
    return view(who.principal, who.csrf, auth.settings.reviewSlaHours);
  });

  app.post<{ Body: EnvironmentBody }>('/console/api/environment', api(EnvironmentBody), async (req, reply) => {
    const who = await principalOf(auth, req, publicOrigin);
    if (!who.ok) return sendError(reply, req, who.code, who.message, who.field);
    noStore(reply);
    return view(await auth.switchEnvironment(who.principal, req.body.environment), who.csrf, auth.settings.reviewSlaHours);
  });

  app.post('/console/api/logout', api(), async (req, reply) => {
    const who = await principalOf(auth, req, publicOrigin);
    if (!who.ok) return sendError(reply, req, who.code, who.message, who.field);
    await auth.logout(who.principal);
    noStore(reply).header('set-cookie', cookie('', 0));
    return reply.code(204).send();
  });
};
