import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config, type EnvVars } from '../../src/config.js';
import type { Db } from '../../src/platform/db.js';
import { createAccount } from '../../src/platform/accounts.js';
import { createApiKey } from '../../src/platform/api-keys.js';
import { MemoryRateLimiter, type RateLimiter } from '../../src/platform/rate-limit.js';
import { createResources, type Resources } from '../../src/platform/resources.js';
import { READINESS } from '../../src/platform/readiness.js';
import type { Environment, RequestContext } from '../../src/platform/context.js';
import { createTestDb } from './test-db.js';
import { activateSnapshot } from '../../src/modules/checks/screening/activate-snapshot.js';
import { prepareSnapshot } from '../../src/engines/screening/snapshot-diff.js';
import type { ListEntity } from '../../src/engines/screening/types.js';

export interface Tenant {
  accountId: string;
  sandboxKey: string;
  productionKey: string;
  /** A key with exactly these scopes. */
  keyWith(scopes: string[], environment?: Environment): Promise<string>;
  ctx(environment?: Environment): RequestContext;
}

export interface TestApp {
  app: App;
  db: Db;
  config: Config;
  /** The app's engines, worker pools and senders, as runtime.ts builds them; pass them to buildJobHandlers. */
  resources: Resources;
  tenant(opts?: { rateLimitPerMinute?: number }): Promise<Tenant>;
  /** app.inject with a bearer key and JSON body. */
  call(
    method: string,
    url: string,
    opts?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A configuration for a test: read from `env` (variables as an operator would set them, never
 * process.env), then `overrides` replace whole top-level fields.
 */
export function testConfig(overrides: Partial<Config> = {}, env: EnvVars = {}): Config {
  const base = loadConfig({ NODE_ENV: 'test', MASTER_KEY: '11'.repeat(32), LOG_LEVEL: 'silent', ...env });
  return { ...base, ...overrides };
}

export async function createTestApp(
  opts: { config?: Partial<Config>; env?: EnvVars; rateLimiter?: RateLimiter; extraRoutes?: (app: App) => void; clock?: () => Date } = {},
): Promise<TestApp> {
  const { db, close } = await createTestDb();
  const config = testConfig(opts.config, opts.env);
  const resources = createResources(config, db);
  const app = await buildApp({
    config,
    db,
    rateLimiter: opts.rateLimiter ?? new MemoryRateLimiter(),
    keyCacheTtlMs: 0,
    clock: opts.clock,
    resources,
  });
  opts.extraRoutes?.(app);
  await app.ready();
  // Background warm-ups (wallet indexes) finish before the test's first request, as a load balancer waits on /readyz.
  await resources.get(READINESS).whenReady();
  let n = 0;
  return {
    app,
    db,
    config,
    resources,
    async tenant(o = {}) {
      const account = await createAccount(db, { name: `tenant ${++n}`, rateLimitPerMinute: o.rateLimitPerMinute ?? null });
      const sandbox = await createApiKey(db, { accountId: account.id, environment: 'sandbox' });
      const production = await createApiKey(db, { accountId: account.id, environment: 'production' });
      return {
        accountId: account.id,
        sandboxKey: sandbox.key,
        productionKey: production.key,
        keyWith: async (scopes, environment = 'sandbox') => (await createApiKey(db, { accountId: account.id, environment, scopes })).key,
        ctx: (environment = 'sandbox') => ({
          db,
          accountId: account.id,
          environment,
          actor: { type: 'system', id: 'test' },
          scopes: ['*'],
          requestId: 'req_test',
        }),
      };
    },
    call(method, url, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      return app.inject({ method: method as 'GET', url, headers, ...(o.body !== undefined ? { payload: o.body as object } : {}) });
    },
    async close() {
      await app.close();
      await resources.close();
      await close();
    },
  };
}

/**
 * Activates a screening list snapshot of `source` holding `entities`, as an operator's import in the
 * test app's own process would (its screening index is told of the switch).
 */
export function activateTestList(
  t: Pick<TestApp, 'db' | 'resources'>,
  source: string,
  entities: ListEntity[],
  format: string | null = null,
) {
  return activateSnapshot(t.db, { source, format, origin: 'import', prepared: prepareSnapshot(entities) }, t.resources);
}
