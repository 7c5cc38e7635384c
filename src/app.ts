import Fastify, { type FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { loggerOptions } from './platform/logger.js';
import { newId } from './platform/ids.js';
import { KeyCache } from './platform/key-cache.js';
import { registerErrorHandling, sendError } from './platform/http/error-handler.js';
import { registerAuth } from './platform/http/auth-plugin.js';
import { buildValidator } from './platform/http/validation.js';
import { registerMultipart } from './platform/http/multipart.js';
import { createMetrics, registerMetrics } from './platform/metrics.js';
import { registerOpenApi } from './platform/openapi.js';
import { ErrorResponse } from './platform/schemas.js';
import { setCursorSecret } from './platform/pagination.js';
import { configureAuditKey } from './platform/audit.js';
import { Sealer } from './platform/crypto.js';
import './platform/http/types.js';
import { modules } from './modules/index.js';
import type { AppDeps } from './platform/app-types.js';

export type { AppDeps, ModuleOptions } from './platform/app-types.js';


export type App = FastifyInstance;

/** Builds the Fastify instance with every platform plugin and module; does not listen. */
export async function buildApp(deps: AppDeps): Promise<App> {
  setCursorSecret(deps.config.masterKey);
  configureAuditKey(deps.config.masterKey);
  const full = { ...deps, sealer: deps.sealer ?? new Sealer(deps.config.masterKey) };
  const app = Fastify({
    logger: deps.logLevel && deps.logLevel !== 'silent' ? loggerOptions(deps.logLevel) : false,
    genReqId: () => newId('request'),
    requestIdHeader: false,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: process.env.TRUST_PROXY === 'true',
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildValidator: (external: Record<string, unknown>) => buildValidator(external) as never } },
  }) as unknown as FastifyInstance;

  app.removeContentTypeParser('text/plain');
  // Many HTTP clients send Content-Type: application/json on every POST, also without a body
  // (POST /v1/webhooks/{id}/test): an empty body is "no body", not malformed JSON.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      // secure-json-parse refuses __proto__ and constructor.prototype keys (prototype poisoning), as Fastify's own parser does.
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(Object.assign(new SyntaxError('invalid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined);
    }
  });
  app.addSchema(ErrorResponse);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const keys = new KeyCache(deps.db, deps.keyCacheTtlMs ?? 5000);
  app.decorate('keyCache', keys);
  registerErrorHandling(app);
  await registerMultipart(app, deps.config.bodyLimitBytes);
  await registerOpenApi(app, deps.config);
  registerMetrics(app, deps.metrics ?? createMetrics());
  registerAuth(app, { config: deps.config, db: deps.db, keys, rateLimiter: deps.rateLimiter, sealer: full.sealer });

  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    try {
      await deps.db.query('SELECT 1');
      return { status: 'ready', database: deps.db.kind };
    } catch {
      // Every non-2xx response uses the error envelope, probes included.
      return sendError(reply, req, 'internal_error', 'The database is not reachable.', null, 503);
    }
  });

  for (const mod of modules) await app.register(mod.plugin, { prefix: mod.prefix, deps: full });
  return app;
}
