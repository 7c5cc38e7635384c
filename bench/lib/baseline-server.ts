// Baseline servers for the platform benchmark: a bare Fastify route that returns JSON, and one that
// runs a transaction of two INSERTs on the same database as the real service (the physical floor of
// a durable write). Started as a child process by bench/platform.ts.
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { openDb } from '../../src/platform/db.js';

const mode = process.env.BASELINE_MODE ?? 'json';
const port = Number(process.env.PORT ?? 0);
const app = Fastify({ logger: false });

if (mode === 'json') {
  app.get('/json', async () => ({ ok: true, id: 'lse_01m7yh2nn74kt312yby46yvbvt', object: 'list_entry' }));
} else {
  // The embedded database on the calling thread, as in every round of docs/performance.md; BASELINE_EMBEDDED_THREAD=true
  // puts it on a thread of its own, as the service runs it by default (DATABASE_EMBEDDED_THREAD).
  const db = await openDb({
    databaseUrl: process.env.DATABASE_URL || null,
    dataDir: process.env.DATA_DIR,
    poolSize: 20,
    embeddedThread: process.env.BASELINE_EMBEDDED_THREAD === 'true',
  });
  await db.query('CREATE TABLE IF NOT EXISTS bench_a (id text PRIMARY KEY, body jsonb, created_at timestamptz DEFAULT now())');
  await db.query('CREATE TABLE IF NOT EXISTS bench_b (id text PRIMARY KEY, a_id text, created_at timestamptz DEFAULT now())');
  app.post('/insert', async (_req, reply) => {
    const id = randomUUID();
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO bench_a (id, body) VALUES ($1, $2::jsonb)', [id, JSON.stringify({ kind: 'email', value: 'a@b.co' })]);
      await tx.query('INSERT INTO bench_b (id, a_id) VALUES ($1, $2)', [randomUUID(), id]);
    });
    reply.code(201);
    return { id };
  });
}
await app.listen({ port, host: '127.0.0.1' });
console.log(`baseline listening on ${(app.server.address() as { port: number }).port}`);
