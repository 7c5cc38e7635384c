import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { firstKeys, startServer, type RunningServer } from '../helpers/spawn-server.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { withUser } from '../../src/platform/db.js';

const MASTER_KEY = '33'.repeat(32);
const fast = { WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2', MASTER_KEY };

async function api(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

test('a server killed with SIGKILL in the middle of a delivery loses nothing: after restart the event is delivered', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-wh-'));
  const rx = await new WebhookReceiver().start();
  const servers: RunningServer[] = [];
  t.after(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const first = await startServer({ DATA_DIR: dir, ...fast });
  servers.push(first);
  const key = firstKeys(dir).sandbox;
  const dest = await api(first.base, key, 'POST', '/v1/webhooks', { url: rx.url, event_types: ['*'] });
  assert.equal(dest.status, 201);
  rx.secrets = [dest.json.secret];
  // The first delivery hangs at the receiver; while it hangs, the whole server process is killed.
  rx.behaviour = (n) => (n === 1 ? { hang: true } : { status: 200 });
  const ev = (await api(first.base, key, 'POST', `/v1/webhooks/${dest.json.id}/test`)).json.event_id;
  await rx
    .waitFor((r) => r.length >= 1)
    .catch((e) => {
      throw new Error(`${e.message}\nserver output:\n${first.output()}`);
    });
  await first.stop('SIGKILL');

  const second = await startServer({ DATA_DIR: dir, ...fast });
  servers.push(second);
  await rx.waitFor((r) => r.filter((x) => x.event?.id === ev).length >= 2, 30_000);
  const copies = rx.received.filter((x) => x.event?.id === ev);
  assert.ok(
    copies.every((c) => c.verified),
    'every copy is signed',
  );
  assert.equal(copies[1]!.event!.delivery.attempt, 2, 'the redelivery is the second attempt of the same delivery');
  // Wait for the attempt to be recorded, then check the delivery's final state through the API.
  for (let i = 0; i < 50; i++) {
    const d = await api(second.base, key, 'GET', `/v1/webhook-deliveries?event_id=${ev}`);
    if (d.json.data[0]?.state === 'succeeded') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail('delivery never recorded as succeeded');
});

const pgBase = process.env.TEST_DATABASE_URL;

function startWorker(url: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

test("two worker processes share the deliveries: none is delivered by both at once; a killed worker's claims are taken over", async (t) => {
  if (!pgBase) return t.skip('needs TEST_DATABASE_URL (several processes need PostgreSQL)');
  const schema = `wh_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withUser(pgBase) });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const u = new URL(withUser(pgBase));
  u.searchParams.set('options', `-c search_path=${schema}`);
  const url = u.toString();
  const rx = await new WebhookReceiver().start();
  const procs: ChildProcess[] = [];
  const keysDir = mkdtempSync(join(tmpdir(), 'verity-wh-keys-'));
  const server = await startServer({ DATABASE_URL: url, DATA_DIR: keysDir, RUN_WORKER: 'false', ...fast, RATE_LIMIT_PER_MINUTE: '100000' });
  t.after(async () => {
    for (const p of procs) p.kill('SIGKILL');
    await server.stop('SIGKILL');
    await rx.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });
  const key = firstKeys(keysDir).sandbox;
  const dest = await api(server.base, key, 'POST', '/v1/webhooks', { url: rx.url, event_types: ['*'] });
  rx.secrets = [dest.json.secret];
  const inFlight = new Map<string, number>();
  let overlap = 0;
  rx.behaviour = (_n, body) => {
    const id = JSON.parse(body).delivery.id as string;
    const now = (inFlight.get(id) ?? 0) + 1;
    if (now > 1) overlap++;
    inFlight.set(id, now);
    setTimeout(() => inFlight.set(id, (inFlight.get(id) ?? 1) - 1), 40);
    return { status: 200, delayMs: 40 };
  };
  // Small per-worker concurrency and a slow receiver, so the work outlasts both workers' start-up.
  const workerEnv = { ...fast, WEBHOOK_CONCURRENCY: '3' };
  procs.push(startWorker(url, workerEnv), startWorker(url, workerEnv));
  await new Promise((r) => setTimeout(r, 4000));
  const N = 120;
  for (let i = 0; i < N; i++) await api(server.base, key, 'POST', `/v1/webhooks/${dest.json.id}/test`);
  await rx.waitFor((r) => new Set(r.map((x) => x.event?.id)).size >= N / 2, 60_000);
  procs[0]!.kill('SIGKILL');
  await rx.waitFor((r) => new Set(r.map((x) => x.event?.id)).size >= N, 60_000);
  assert.equal(overlap, 0, 'no delivery was being sent by two workers at the same moment');
  assert.ok(rx.received.every((r) => r.verified));
  const [row] = (await admin.query(`SELECT count(DISTINCT worker)::int AS workers FROM ${schema}.webhook_attempts`)).rows;
  assert.equal(row.workers, 2, 'both workers delivered');
});
