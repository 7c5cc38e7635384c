import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { canSendWithNext, openDb, queryBatch, withUser, type Db } from './db.js';

// Prepared statements (on by default) behind a real pooler in transaction mode: PgBouncer started by the test on a
// loopback port in front of the test server, two server sessions shared by six client connections, so transactions
// land on sessions that never saw this connection's PREPARE (or already have another client's). The service must
// notice, switch prepared statements off, and answer every request. Needs TEST_DATABASE_URL and Debian's pgbouncer
// (`.ci/run` installs it).
const PGBOUNCER = '/usr/sbin/pgbouncer';
const base = process.env.TEST_DATABASE_URL;
const skip = !base
  ? 'needs TEST_DATABASE_URL (PostgreSQL)'
  : !existsSync(PGBOUNCER)
    ? `needs ${PGBOUNCER} (apt-get install pgbouncer)`
    : false;

let dir = '';
let bouncer: ChildProcess | null = null;
let port = 0;
const schema = `pooler_${randomBytes(5).toString('hex')}`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

async function direct<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: withUser(base!) });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The pooler's URL for the test database, as the service would be given it. */
function pooledUrl(): string {
  const u = new URL(withUser(base!));
  u.hostname = '127.0.0.1';
  u.port = String(port);
  u.search = '';
  return u.toString();
}

before(async () => {
  if (skip) return;
  const u = new URL(withUser(base!));
  dir = mkdtempSync(join(tmpdir(), 'verity-pgbouncer-'));
  chmodSync(dir, 0o777); // pgbouncer refuses to run as root: it drops to `nobody`, who writes its log here
  port = await freePort();
  const user = decodeURIComponent(u.username) || userInfo().username;
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${u.hostname} port=${u.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 2',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const args = process.getuid?.() === 0 ? ['-u', 'nobody', join(dir, 'pgbouncer.ini')] : [join(dir, 'pgbouncer.ini')];
  bouncer = spawn(PGBOUNCER, args, { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    try {
      const c = new pg.Client({ connectionString: pooledUrl() });
      await c.connect();
      await c.end();
      break;
    } catch (err) {
      if (i >= 50) {
        const log = existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : '';
        throw new Error(`pgbouncer did not start: ${String(err)}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await direct((c) => c.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (id text PRIMARY KEY, n int NOT NULL)`));
});

after(async () => {
  if (skip) return;
  bouncer?.kill('SIGTERM');
  await direct((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  rmSync(dir, { recursive: true, force: true });
});

test(
  'behind PgBouncer in transaction mode: every transaction answers, prepared statements switch themselves off once',
  { skip },
  async () => {
    const warnings: string[] = [];
    const db: Db = await openDb({ databaseUrl: pooledUrl(), poolSize: 6, preparedPerConnection: 100, warn: (m) => warnings.push(m) });
    const INSERT = `INSERT INTO ${schema}.t (id, n) VALUES ($1, $2) RETURNING id, n`;
    const SUM = `SELECT count(*)::int AS c, coalesce(sum(n), 0)::int AS s FROM ${schema}.t WHERE id LIKE $1`;
    try {
      const rounds = 40;
      const width = 6;
      for (let r = 0; r < rounds; r++) {
        const answers = await Promise.all(
          Array.from({ length: width }, (_, w) =>
            db.transaction(async (tx) => {
              assert.ok(canSendWithNext(tx));
              tx.sendWithCommit(INSERT, [`r${r}w${w}b`, 1]);
              return tx.query<{ id: string; n: number }>(INSERT, [`r${r}w${w}`, w]);
            }),
          ),
        );
        assert.deepEqual(
          answers,
          Array.from({ length: width }, (_, w) => [{ id: `r${r}w${w}`, n: w }]),
        );
        const [counted] = await queryBatch(db, [{ sql: SUM, params: [`r${r}w%`] }]);
        assert.deepEqual(counted, [{ c: 2 * width, s: (width * (width - 1)) / 2 + width }]);
      }
      const [total] = await direct((c) => c.query<{ c: number }>(`SELECT count(*)::int AS c FROM ${schema}.t`)).then((x) => x.rows);
      assert.equal(total!.c, rounds * width * 2);
      assert.equal((db as unknown as { preparing: boolean }).preparing, false, 'the pooler was noticed');
      assert.equal(warnings.length, 1);
      // Found before anything was prepared: the pooler announces its own backend key (any 32-bit value, negative too),
      // not the server session's pid.
      assert.match(warnings[0]!, /prepared statements switched off: .*announced backend -?\d+ but runs on backend \d+/);
    } finally {
      await db.close();
    }
  },
);

test('behind PgBouncer: transactions sent whole are not pipelined (the pooler is noticed) and every one commits', { skip }, async () => {
  for (const prepared of [100, 0]) {
    const db: Db = await openDb({
      databaseUrl: pooledUrl(),
      poolSize: 4,
      preparedPerConnection: prepared,
      pipelineConnections: 2,
      warn: () => undefined,
    });
    const INSERT = `INSERT INTO ${schema}.t (id, n) VALUES ($1, $2)`;
    try {
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          db.transaction(async (tx) => {
            assert.ok(canSendWithNext(tx));
            tx.sendWithCommit(INSERT, [`p${prepared}-${i}`, i]);
          }),
        ),
      );
      const [row] = await direct((c) =>
        c.query<{ c: number }>(`SELECT count(*)::int AS c FROM ${schema}.t WHERE id LIKE $1`, [`p${prepared}-%`]),
      ).then((x) => x.rows);
      assert.equal(row!.c, 60);
      assert.equal((db as unknown as { pipeline: { off: boolean } }).pipeline.off, true, 'pipelining switched off');
    } finally {
      await db.close();
    }
  }
});
