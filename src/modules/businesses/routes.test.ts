import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { ModuleOptions } from '../../platform/app-types.js';
import type { Resource } from '../../platform/resources.js';
import { businessesModule } from './routes.js';

// Registering the routes must not start an engine: the screening index (lists loaded into memory) is taken by
// the request that screens, so an app that never creates a business never builds it.
test('registering the businesses routes takes no resource; a route handler is what asks for one', async () => {
  const asked: string[] = [];
  const routes: string[] = [];
  const r = {
    post: (path: string) => void routes.push(`POST ${path}`),
    get: (path: string) => void routes.push(`GET ${path}`),
  };
  const app = { withTypeProvider: () => r } as unknown as FastifyInstance;
  const deps = {
    config: { businesses: { timeoutMs: 1000, allowPrivateNetworks: false, gleif: null, companiesHouse: null }, hostedBaseUrl: 'http://x' },
    sealer: {},
    resources: {
      get: (res: Resource<unknown>) => {
        asked.push(res.name);
        return {};
      },
    },
  } as unknown as ModuleOptions['deps'];
  await businessesModule(app, { deps } as ModuleOptions);
  assert.ok(routes.includes('POST /search') && routes.includes('POST '), routes.join(', '));
  assert.deepEqual(asked, []);
});
