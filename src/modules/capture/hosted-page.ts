import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ModuleOptions } from '../../platform/app-types.js';
import { notFound } from '../../platform/errors.js';

const WEB_DIR = fileURLToPath(new URL('../../../web/capture/', import.meta.url));
const ASSETS: Record<string, string> = { 'capture.js': 'text/javascript; charset=utf-8', 'capture.css': 'text/css; charset=utf-8' };

/**
 * Where the page is served: the path of HOSTED_BASE_URL when it is on this service's own origin
 * (default /hosted), else /hosted, for a reverse proxy in front of HOSTED_BASE_URL to forward to.
 */
export function hostedPathPrefix(hostedBaseUrl: string, publicBaseUrl: string): string {
  const hosted = new URL(hostedBaseUrl);
  if (hosted.origin !== new URL(publicBaseUrl).origin) return '/hosted';
  return hosted.pathname.replace(/\/+$/, '');
}

/** The page's security policy: its own script and styles only, API calls to this service only. */
export function pageSecurityHeaders(apiOrigin: string): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' blob: data:",
      "media-src 'self' blob:",
      `connect-src 'self' ${apiOrigin}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(self), microphone=(), geolocation=(), payment=()',
  };
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * GET {hosted}/s/:id — the hosted capture page (web/capture/): static HTML, one stylesheet, one ES
 * module. The session token arrives as ?token= and the script moves it into sessionStorage at once;
 * nothing here reads it, and the page itself holds no session data.
 */
export const hostedPageModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const { config } = opts.deps;
  const prefix = hostedPathPrefix(config.hostedBaseUrl, config.publicBaseUrl);
  const api = `${config.publicBaseUrl}/capture/v1`;
  const html = readFileSync(WEB_DIR + 'index.html', 'utf8').replace('{{CAPTURE_API}}', escapeAttr(api));
  const assets = Object.fromEntries(Object.keys(ASSETS).map((f) => [f, readFileSync(WEB_DIR + f)]));
  const security = pageSecurityHeaders(new URL(config.publicBaseUrl).origin);
  const send = (reply: FastifyReply, type: string, body: string | Buffer, cache: string) =>
    reply.headers(security).header('cache-control', cache).type(type).send(body);

  app.get<{ Params: { id: string } }>(`${prefix}/s/:id`, { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    if (!/^[A-Za-z0-9_]{1,64}$/.test(req.params.id)) throw notFound('verification session');
    return send(reply, 'text/html; charset=utf-8', html, 'no-store');
  });

  app.get<{ Params: { file: string } }>(
    `${prefix}/assets/:file`,
    { config: { public: true }, schema: { hide: true } },
    async (req, reply) => {
      const type = ASSETS[req.params.file];
      if (!type) throw notFound('asset');
      return send(reply, type, assets[req.params.file]!, 'public, max-age=300');
    },
  );
};
