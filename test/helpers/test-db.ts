import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDb, migrate, migratedEmbeddedImage, withUser, type Db } from '../../src/platform/db.js';
import { configureAuditKey } from '../../src/platform/audit.js';

/** The master key of test apps (test-app.ts); the audit chain of a test database is keyed with it too. */
export const TEST_MASTER_KEY = '11'.repeat(32);
configureAuditKey(Buffer.from(TEST_MASTER_KEY, 'hex'));

/**
 * A migrated database for one test file: an in-memory PGlite by default, or a private schema on
 * the PostgreSQL server named by TEST_DATABASE_URL (dropped on close), so test files never share rows.
 * As in the default configuration, statements with values are prepared once per connection (PostgreSQL) or in the
 * embedded database's one session (PGlite) (DATABASE_PREPARED_STATEMENTS; docs/performance.md, "step 4");
 * TEST_PREPARED_STATEMENTS=false sends every statement as text (src/platform/db-prepared.test.ts opens its own pools).
 */
export async function createTestDb(): Promise<{ db: Db; url: string | null; close: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  const prepared = !['0', 'false', 'no', 'off'].includes((process.env.TEST_PREPARED_STATEMENTS ?? '').toLowerCase());
  if (!base) {
    // As in the default configuration, PGlite runs on a thread of its own; TEST_EMBEDDED_THREAD=false keeps it on this one.
    const embeddedThread = !['0', 'false', 'no', 'off'].includes((process.env.TEST_EMBEDDED_THREAD ?? '').toLowerCase());
    const db = await openDb({
      dataDir: 'memory://',
      embeddedThread,
      preparedPerConnection: prepared ? 100 : 0,
      embeddedImage: await migratedImage(),
    });
    await migrate(db); // nothing to apply: the image holds every migration of this checkout (its key says so)
    return { db, url: null, close: () => db.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withUser(base) });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = withSearchPath(base, schema);
  const db = await openDb({
    databaseUrl: url,
    poolSize: 10,
    preparedPerConnection: prepared ? 100 : 0,
    // As in the default configuration, transactions sent whole go pipelined (TEST_PIPELINE_CONNECTIONS=0: none).
    pipelineConnections: Number(process.env.TEST_PIPELINE_CONNECTIONS ?? 2),
    // A test server is not behind a pooler: prepared statements switching themselves off here is a bug to see.
    warn: (message) => console.error(`[test-db] ${message}`),
  });
  await migrate(db);
  return {
    db,
    url,
    close: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: withUser(base) });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

const REPO = new URL('../../', import.meta.url);
let image: Promise<Uint8Array> | null = null;

/**
 * The migrated embedded database's image (migratedEmbeddedImage), made once per set of migrations and PGlite build and
 * kept in node_modules/.cache/verity-test-db for the suite's other processes: each test file's database starts from
 * it instead of running initdb and the migrations (about 0.6 s instead of 3 s per database here).
 */
function migratedImage(): Promise<Uint8Array> {
  image ??= (async () => {
    const key = createHash('sha256');
    const migrations = fileURLToPath(new URL('migrations/', REPO));
    for (const f of readdirSync(migrations).sort()) key.update(f).update(readFileSync(migrations + f));
    for (const pkg of ['@electric-sql/pglite', '@electric-sql/pglite-pgvector'])
      key.update(readFileSync(fileURLToPath(new URL(`node_modules/${pkg}/package.json`, REPO))));
    const dir = fileURLToPath(new URL('node_modules/.cache/verity-test-db/', REPO));
    const file = `${dir}${key.digest('hex').slice(0, 32)}.tar`;
    if (existsSync(file)) return new Uint8Array(readFileSync(file));
    const made = await migratedEmbeddedImage();
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed: processes making it at the same time each leave a whole file.
    writeFileSync(`${file}.${process.pid}`, made);
    renameSync(`${file}.${process.pid}`, file);
    return made;
  })();
  return image;
}

export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}
