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
