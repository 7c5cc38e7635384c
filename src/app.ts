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
import { errorBody, invalid } from './platform/errors.js';
import { countryCode } from './engines/screening/countries.js';
import { refuseUnexpectedBodies, rejectNulCharacters } from './platform/http/input-guards.js';

/** Formats the route schemas use beyond JSON Schema's and the platform's own: a country name the screening engine knows. */
const VALIDATION_FORMATS = {
  country: (v: string) => countryCode(v) !== undefined,
};

/** Ids are at most 64 characters (IdParam); a longer path parameter is refused by the router. */
const MAX_PARAM_LENGTH = 100;
import { setCursorSecret } from './platform/pagination.js';
import { configureAuditKey } from './platform/audit.js';
import { Sealer } from './platform/crypto.js';
import { createResources } from './platform/resources.js';
import { READINESS } from './platform/readiness.js';
import './platform/http/types.js';
import { CASE_SUBJECT_SOURCES, EVENTS, modules, registerCaseSubjectSources } from './modules/index.js';
import { registerEvents } from './platform/event-catalog.js';
import { ConsoleAuth, consoleGate, consoleModule, consoleSettings } from './modules/console/index.js';
import type { AppDeps } from './platform/app-types.js';

export type { AppDeps, ModuleOptions } from './platform/app-types.js';

export type App = FastifyInstance;

/** Builds the Fastify instance with every platform plugin and module; does not listen. */
export async function buildApp(deps: AppDeps): Promise<App> {
  registerEvents(EVENTS);
  registerCaseSubjectSources(CASE_SUBJECT_SOURCES);
  setCursorSecret(deps.config.masterKey);
  configureAuditKey(deps.config.masterKey);
  const full = {
    ...deps,
    sealer: deps.sealer ?? new Sealer(deps.config.masterKey),
    resources: deps.resources ?? createResources(deps.config, deps.db),
  };
  const app = Fastify({
    logger: deps.logLevel && deps.logLevel !== 'silent' ? loggerOptions(deps.logLevel) : false,
    genReqId: () => newId('request'),
    requestIdHeader: false,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    return503OnClosing: true,
    // Fastify's own refusals (a path that is not valid percent-encoding, a path parameter over
    // maxParamLength, a malformed Content-Type) answer in the error envelope like everything else.
    frameworkErrors: (err, req, reply) => {
      reply.header('x-request-id', req.id);
      const field =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH' || err.code === 'FST_ERR_BAD_URL'
          ? 'path'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Content-Type'
            : null;
      const message =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? `A path parameter is longer than ${MAX_PARAM_LENGTH} characters; no resource has such an id.`
          : err.code === 'FST_ERR_BAD_URL'
            ? 'The path is not valid percent-encoding.'
            : 'The request could not be read.';
      void sendError(reply, req, 'invalid_request', message, field, 400);
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Requests the HTTP parser refuses before Fastify sees them (over-long headers or URL, bad framing)
    // still get the envelope; there is no request id yet, so the answer carries a fresh one.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return socket.destroy();
      const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
      const status = tooLarge ? 431 : 400;
      const id = newId('request');
      const body = JSON.stringify(
        errorBody(
          'invalid_request',
          tooLarge ? 'The request line or headers are larger than this service accepts.' : 'The request could not be parsed as HTTP.',
          tooLarge ? 'headers' : null,
          id,
        ),
      );
      socket.end(
        `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${id}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    },
    schemaController: {
      compilersFactory: { buildValidator: (external: Record<string, unknown>) => buildValidator(external, VALIDATION_FORMATS) as never },
    },
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
    } catch (err) {
      if (/forbidden prototype/.test((err as Error).message)) {
        return done(
          invalid(
            'body',
            'The body uses the key __proto__ or constructor.prototype, which this service refuses (prototype pollution); rename the field.',
          ),
          undefined,
        );
      }
      done(Object.assign(new SyntaxError('invalid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined);
    }
  });
  app.addSchema(ErrorResponse);
  rejectNulCharacters(app);
  refuseUnexpectedBodies(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const keys = new KeyCache(deps.db, deps.keyCacheTtlMs ?? 5000);
  app.decorate('keyCache', keys);
  registerErrorHandling(app);
  await registerMultipart(app, deps.config.bodyLimitBytes);
  await registerOpenApi(app, deps.config);
  registerMetrics(app, deps.metrics ?? createMetrics());
  // Operators signed in to the console are a second kind of principal on /v1 (src/modules/console).
  const consoleAuth = new ConsoleAuth(deps.db, full.sealer, consoleSettings(deps.config.console, deps.config.publicBaseUrl), deps.clock);
  registerAuth(app, {
    config: deps.config,
    db: deps.db,
    keys,
    rateLimiter: deps.rateLimiter,
    sealer: full.sealer,
    console: consoleGate(consoleAuth, deps.config.publicBaseUrl),
  });

  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    try {
      await deps.db.query('SELECT 1');
      // The rate-limit store is reported, not required: without Redis limits are counted per process.
      const limits = deps.rateLimiter.health?.();
      // Components warming in the background (platform/readiness.ts) hold readiness back, named.
      const { ready, components } = full.resources.get(READINESS).report();
      const named = Object.keys(components).length > 0 ? { components } : {};
      if (!ready) {
        const warming = Object.keys(components).filter((k) => components[k] === 'warming');
        return reply
          .code(503)
          .type('application/json; charset=utf-8')
          .send({
            status: 'not_ready',
            ...named,
            ...errorBody('internal_error', `Not ready yet: ${warming.join(', ')} warming.`, null, req.id),
          });
      }
      return { status: 'ready', database: deps.db.kind, ...(limits ? { rate_limits: limits } : {}), ...named };
    } catch {
      // Every non-2xx response uses the error envelope, probes included.
      return sendError(reply, req, 'internal_error', 'The database is not reachable.', null, 503);
    }
  });

  // Resources the caller did not give belong to this app; given ones belong to the caller (runtime.ts).
  if (!deps.resources) app.addHook('onClose', () => full.resources.close());
  for (const mod of modules) await app.register(mod.plugin, { prefix: mod.prefix, deps: full });
  await app.register(consoleModule, { auth: consoleAuth, publicBaseUrl: deps.config.publicBaseUrl });
  return app;
}
