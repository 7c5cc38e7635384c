// BENCH_PIN: the servers a load benchmark starts on some CPUs, PostgreSQL on the others.
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
  process.on('exit', unpinPostgres);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.once(signal, () => {
      unpinPostgres();
      process.exit(code); // 128 + the signal's number, as the default handler's exit would report
    });
  console.error(`BENCH_PIN: servers on CPU ${l.api}, PostgreSQL on CPU ${l.rest}, the load generator on any`);
}

/** Pins a server the bench just started (no-op without BENCH_PIN); the first call pins the rest. */
export function pinServer(pid: number | undefined): void {
  const l = layout();
  if (!l || pid === undefined) return;
  pinRest(l);
  taskset(l.api, pid);
}

/** What the CPU line of a report says about pinning ('' without BENCH_PIN). */
export function pinNote(): string {
  const l = layout();
  return l ? `; pinned: servers on CPU ${l.api}, PostgreSQL on CPU ${l.rest}` : '';
}
