// The OpenAPI document the app generates from its route schemas, built in memory (no server, no data).
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/platform/db.js';
import { MemoryRateLimiter } from '../src/platform/rate-limit.js';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    NODE_ENV: 'test',
    MASTER_KEY: '00'.repeat(32),
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'https://verity.internal',
  });
  const db = await openDb({ dataDir: 'memory://' });
  try {
    const app = await buildApp({ config, db, rateLimiter: new MemoryRateLimiter() });
    try {
      await app.ready();
      return (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}
