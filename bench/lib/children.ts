// Processes and databases the load benchmarks start: each server in its own process, each run on a
// fresh PostgreSQL schema (dropped afterwards), so runs never see each other's rows.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { withUser } from '../../src/platform/db.js';
import { pinServer } from './pin.js';

/**
 * Starts `node --import tsx ARGS…` (in `cwd`, e.g. another checkout to compare against) and resolves once
 * its output matches `ready`. `nodeArgs` go before the script (`--cpu-prof`).
 */
export function startChild(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  opts: { cwd?: string; nodeArgs?: string[] } = {},
): Promise<{ proc: ChildProcess; out: () => string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pinServer(proc.pid); // BENCH_PIN (bench/lib/pin.ts)
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (ready.test(out)) resolve({ proc, out: () => out });
    });
    proc.stderr!.on('data', (d) => (out += d));
    proc.on('exit', (code) => reject(new Error(`child exited ${code}: ${out}`)));
  });
}

export async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  await new Promise<void>((r) => {
    proc.once('exit', () => r());
    proc.kill('SIGTERM');
  });
}

/** A new schema on the benchmark server, reached through `search_path`; `drop` removes it. */
export async function freshSchema(base: string): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: withUser(base) });
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  await c.end();
  const u = new URL(withUser(base));
  u.searchParams.set('options', `-c search_path=${schema}`);
  // The schema's name as the connections' application_name: a bench can find its own backends (pg_stat_activity)
  // among those of other work on the same server.
  u.searchParams.set('application_name', schema);
  return {
    url: u.toString(),
    schema,
    drop: async () => {
      const d = new pg.Client({ connectionString: withUser(base) });
      await d.connect();
      await d.query(`DROP SCHEMA ${schema} CASCADE`);
      await d.end();
    },
  };
}
