// BENCH_PIN: the servers a load benchmark starts on some CPUs, PostgreSQL on the others. BENCH_PG_SCHED=batch:
// PostgreSQL's processes under the SCHED_BATCH policy (below).
//
// On a 2-core machine the API process and PostgreSQL's backends share both cores, and the unpinned runs showed
// 14–17 % idle time at saturation (likely: a backend woken by the API's socket write runs on the API's core and
// preempts its one thread while the other core idles). With the API on a core of its own KYT gained about 10 % and
// its p99 at a paced 500 tx/s fell severalfold (docs/performance.md, "KYT: … the API on a core of its own");
// docs/operations.md says how an operator does the same (systemd CPUAffinity, docker --cpuset-cpus, taskset).
//
// BENCH_PIN=1 means servers on CPU 0, PostgreSQL on CPU 1 (the load generator, this process, is not pinned);
// BENCH_PIN=<server cpus>/<postgres cpus> (taskset lists, e.g. `0/1` or `0-1/2-3`) chooses. Needs `taskset`
// (util-linux) and the right to change PostgreSQL's processes (root, or the same user): a bench machine's setting,
// put back when the bench process exits or is interrupted.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

interface Layout {
  api: string;
  rest: string;
}

function layout(): Layout | null {
  const v = process.env.BENCH_PIN;
  if (!v || v === '0') return null;
  if (v === '1') return { api: '0', rest: '1' };
  const m = /^([0-9,-]+)\/([0-9,-]+)$/.exec(v);
  if (!m) throw new Error(`BENCH_PIN=${v}: expected 1 or <api cpus>/<other cpus>, e.g. 0/1`);
  return { api: m[1]!, rest: m[2]! };
}

const all = `0-${cpus().length - 1}`;
let restPinned = false;

/** What to put back when this process exits or is interrupted (PostgreSQL's CPUs, its policy). */
const restores: (() => void)[] = [];

function onExit(restore: () => void): void {
  if (restores.length === 0) {
    process.on('exit', () => restores.forEach((r) => r()));
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const)
      process.once(signal, () => process.exit(code)); // 128 + the signal's number; 'exit' then puts things back
  }
  restores.push(restore);
}

function taskset(cpuList: string, pid: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
}

/** Every PostgreSQL process on this machine (the postmaster's new backends inherit its mask). */
function postgresPids(): number[] {
  try {
    return execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // none running (PGlite runs)
  }
}

/** PostgreSQL on every CPU again. */
function unpinPostgres(): void {
  for (const pid of postgresPids()) {
    try {
      taskset(all, pid);
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * PostgreSQL on the other CPUs, once (the load generator, this process, stays free to run on any); back on every
 * CPU when this process exits or is interrupted.
 */
function pinRest(l: Layout): void {
  if (restPinned) return;
  restPinned = true;
  for (const pid of postgresPids()) taskset(l.rest, pid);
  onExit(unpinPostgres);
  console.error(`BENCH_PIN: servers on CPU ${l.api}, PostgreSQL on CPU ${l.rest}, the load generator on any`);
}

// BENCH_PG_SCHED=batch: every PostgreSQL process (and, through the postmaster, every backend it forks) under
// SCHED_BATCH (`chrt -b`). A task woken under SCHED_BATCH does not preempt the task running on its CPU: a backend
// woken by the API's socket write waits for its turn or for the other core instead of taking the API's thread off
// the CPU in the middle of a request (docs/performance.md, "KYT: PostgreSQL under SCHED_BATCH"). Put back to
// SCHED_OTHER when this process exits or is interrupted. Needs `chrt` (util-linux) and the right to change
// PostgreSQL's processes.
let scheduled = false;

function chrtAll(flag: '-b' | '-o'): void {
  for (const pid of postgresPids()) {
    try {
      execFileSync('chrt', [flag, '-a', '-p', '0', String(pid)], { stdio: 'ignore' });
    } catch {
      // gone meanwhile
    }
  }
}

function schedulePostgres(): void {
  if (scheduled || process.env.BENCH_PG_SCHED !== 'batch') return;
  scheduled = true;
  chrtAll('-b');
  onExit(() => chrtAll('-o'));
  console.error('BENCH_PG_SCHED: PostgreSQL under SCHED_BATCH');
}

/**
 * Pins a server the bench just started (no-op without BENCH_PIN); the first call pins the rest, and puts
 * PostgreSQL under SCHED_BATCH with BENCH_PG_SCHED=batch.
 */
export function pinServer(pid: number | undefined): void {
  schedulePostgres();
  const l = layout();
  if (!l || pid === undefined) return;
  pinRest(l);
  taskset(l.api, pid);
}

/** What the CPU line of a report says about pinning and PostgreSQL's policy ('' without either). */
export function pinNote(): string {
  const l = layout();
  const sched = process.env.BENCH_PG_SCHED === 'batch' ? '; PostgreSQL under SCHED_BATCH' : '';
  return (l ? `; pinned: servers on CPU ${l.api}, PostgreSQL on CPU ${l.rest}` : '') + sched;
}
