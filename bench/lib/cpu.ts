// Where the CPU goes during a load run: the server process, PostgreSQL's processes and the load generator
// (this process), read from /proc (Linux) before and after, in cores used on average over the run.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const TICKS = 100; // USER_HZ on Linux

/** [utime, stime] of one process in clock ticks. */
function ticksOf(pid: number): [number, number] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime are fields 14 and 15 (1-based); after the comm they are at 11 and 12 (0-based).
    return [Number(f[11]), Number(f[12])];
  } catch {
    return [0, 0];
  }
}

/** Sum of utime+stime of every live process named `postgres` (the server and its backends), plus what exited backends left in their parent's cumulative times. */
function postgresTicks(): number {
  let sum = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      sum += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]); // + cutime, cstime (exited backends)
    } catch {
      // the process ended between the listing and the read
    }
  }
  return sum;
}

export interface CpuSplit {
  server: number;
  /** The part of `server` spent in the kernel (system time: socket writes and reads over loopback). */
  serverSystem: number;
  postgres: number;
  loadGenerator: number;
  seconds: number;
}

/** Starts measuring; the returned function stops and gives cores used per second of wall time. */
export function startCpuSplit(serverPid: number | undefined): () => CpuSplit {
  const t0 = process.hrtime.bigint();
  const s0: [number, number] = serverPid ? ticksOf(serverPid) : [0, 0];
  const p0 = postgresTicks();
  const c0 = process.cpuUsage();
  return () => {
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    const s1 = serverPid ? ticksOf(serverPid) : s0;
    return {
      server: (s1[0] - s0[0] + s1[1] - s0[1]) / TICKS / seconds,
      serverSystem: (s1[1] - s0[1]) / TICKS / seconds,
      postgres: (postgresTicks() - p0) / TICKS / seconds,
      loadGenerator: (c.user + c.system) / 1e6 / seconds,
      seconds,
    };
  };
}

export function formatSplit(s: CpuSplit): string {
  return `server ${s.server.toFixed(2)} (kernel ${s.serverSystem.toFixed(2)}), PostgreSQL ${s.postgres.toFixed(2)}, load generator ${s.loadGenerator.toFixed(2)} cores`;
}

/**
 * CPU ticks of the PostgreSQL backends whose application_name is `name` (a bench's own connections, see
 * freshSchema), by pid: other work on the same server is not counted, unlike `postgres` in CpuSplit.
 */
export async function ownBackendTicks(databaseUrl: string, name: string): Promise<Map<number, number>> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    return new Map(rows.map((r) => [r.pid, ticksOf(r.pid).reduce((a, b) => a + b, 0)]));
  } finally {
    await c.end();
  }
}

/** Cores used by a bench's own backends between two ownBackendTicks readings (a backend opened meanwhile counts from 0). */
export function ownBackendCores(before: Map<number, number>, after: Map<number, number>, seconds: number): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / TICKS / seconds;
}

/** The server's WAL counters (pg_stat_wal: the whole cluster, so other work on the server counts too). */
export async function walCounters(databaseUrl: string): Promise<{ records: number; fpi: number; bytes: number }> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ records: string; fpi: string; bytes: string }>(
      'SELECT wal_records::text AS records, wal_fpi::text AS fpi, wal_bytes::text AS bytes FROM pg_stat_wal',
    );
    return { records: Number(rows[0]!.records), fpi: Number(rows[0]!.fpi), bytes: Number(rows[0]!.bytes) };
  } finally {
    await c.end();
  }
}

/**
 * Waits until no CREATE INDEX runs on the server and at least `min` valid indexes of `schema` named like `pattern`
 * exist and no job of `queue` is due or running (e.g. the derived indexes a worker builds CONCURRENTLY after a
 * publish), or until `timeoutMs`. Returns the
 * seconds waited and the index names found.
 */
export async function waitForIndexes(
  databaseUrl: string,
  schema: string,
  pattern: string,
  min: number,
  timeoutMs: number,
  /** A job queue (the `jobs` table of the connection's search path) whose due or running jobs also count as building. */
  queue = '',
): Promise<{ seconds: number; names: string[] }> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const t0 = Date.now();
  try {
    for (;;) {
      const { rows } = await c.query<{ names: string[] | null; building: number }>(
        `SELECT (SELECT array_agg(i.relname::text ORDER BY i.relname) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                  JOIN pg_namespace n ON n.oid = i.relnamespace
                  WHERE n.nspname = $1 AND i.relname LIKE $2 AND x.indisvalid AND x.indisready) AS names,
                (SELECT count(*)::int FROM pg_stat_progress_create_index)
                  + (SELECT count(*)::int FROM jobs j WHERE j.queue = $3
                      AND (j.state = 'running' OR (j.state = 'queued' AND j.run_at <= now()))) AS building`,
        [schema, pattern, queue],
      );
      const names = rows[0]!.names ?? [];
      if ((names.length >= min && rows[0]!.building === 0) || Date.now() - t0 > timeoutMs)
        return { seconds: (Date.now() - t0) / 1000, names };
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await c.end();
  }
}

/** Rows written per table of `schema` (pg_stat_user_tables): inserted, updated (of them HOT), deleted. */
export interface TableWrites {
  [table: string]: { ins: number; upd: number; hot: number; del: number };
}

/**
 * The tuple counters of every table of `schema`. Backends report them at most once a second while busy, so a
 * reading taken right after a steady load misses about its last second and one taken right before it holds all
 * but the second before: between two readings bracketing a run that follows a warm-up of the same load, the two
 * cancel out.
 */
export async function tableWrites(databaseUrl: string, schema: string): Promise<TableWrites> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ relname: string; ins: string; upd: string; hot: string; del: string }>(
      `SELECT relname, n_tup_ins::text AS ins, n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot, n_tup_del::text AS del
         FROM pg_stat_user_tables WHERE schemaname = $1`,
      [schema],
    );
    return Object.fromEntries(
      rows.map((r) => [r.relname, { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), del: Number(r.del) }]),
    );
  } finally {
    await c.end();
  }
}

/** Rows written per request between two readings, e.g. `transactions +1.00, events +1.00 ~1.00 (HOT 0.00)`; tables under 0.01 left out. */
export function formatTableWrites(before: TableWrites, after: TableWrites, requests: number): string {
  const parts: [number, string][] = [];
  for (const [table, a] of Object.entries(after)) {
    const b = before[table] ?? { ins: 0, upd: 0, hot: 0, del: 0 };
    const per = (x: number, y: number) => (x - y) / requests;
    const ins = per(a.ins, b.ins);
    const upd = per(a.upd, b.upd);
    const hot = per(a.hot, b.hot);
    const del = per(a.del, b.del);
    if (ins + upd + del < 0.01) continue;
    const bits = [
      ins >= 0.01 ? `+${ins.toFixed(2)}` : '',
      upd >= 0.01 ? `~${upd.toFixed(2)} (HOT ${hot.toFixed(2)})` : '',
      del >= 0.01 ? `-${del.toFixed(2)}` : '',
    ];
    parts.push([ins + upd + del, `${table} ${bits.filter(Boolean).join(' ')}`]);
  }
  return parts
    .sort((x, y) => y[0] - x[0])
    .map((p) => p[1])
    .join(', ');
}
