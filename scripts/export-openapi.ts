// Prints the OpenAPI document generated from the route schemas (used by `npm run lint:openapi`).
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/platform/db.js';
import { MemoryRateLimiter } from '../src/platform/rate-limit.js';

const config = loadConfig({
  NODE_ENV: 'test',
  MASTER_KEY: '00'.repeat(32),
  LOG_LEVEL: 'silent',
  PUBLIC_BASE_URL: 'https://verity.internal',
});
const db = await openDb({ dataDir: 'memory://' });
const app = await buildApp({ config, db, rateLimiter: new MemoryRateLimiter() });
await app.ready();
const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
await app.close();
await db.close();
