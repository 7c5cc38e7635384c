// Screening speed (run: node --expose-gc --max-old-space-size=8192 --import tsx bench/screening-speed.ts [--skip-1m]).
// Single-threaded, in-process. Reports wall-clock and CPU time per query because the benchmark machine
// is shared: CPU time is what the query costs, wall time includes waiting for a core.
import { loadavg } from 'node:os';
import { officialLists, ofacSnapshots, syntheticEntities, syntheticName, seeded, percentile } from './screening-data.js';
import { ScreeningIndex } from '../src/engines/screening/index.js';
import { diffSnapshots } from '../src/engines/screening/snapshot-diff.js';
import { rescreenDelta, prepareSubject, type PreparedSubject } from '../src/engines/screening/rescreen.js';
import type { ListEntity, ScreeningQuery } from '../src/engines/screening/types.js';

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = (): number => {
  gc?.();
  return process.memoryUsage().heapUsed / 1048576;
};
const ms = (x: number): string => x.toFixed(3);
const skip1m = process.argv.includes('--skip-1m');
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (2 cores shared)`,
);

function variants(entities: readonly ListEntity[], n: number, seed: number): ScreeningQuery[] {
  const rnd = seeded(seed);
  const out: ScreeningQuery[] = [];
  while (out.length < n) {
    const e = entities[Math.floor(rnd() * entities.length)]!;
    const name = e.names[Math.floor(rnd() * e.names.length)]!.full;
    const k = out.length % 4;
    if (k === 0) out.push({ name });
    else if (k === 1) out.push({ name: name.replace(/,/g, ' ').split(/\s+/).reverse().join(' ') });
    else if (k === 2) {
      const p = Math.floor(name.length / 2);
      out.push({ name: name.slice(0, p) + (name[p] === 'a' ? 'e' : 'a') + name.slice(p + 1) });
    } else out.push({ name: syntheticName(rnd) }); // almost surely not listed: the common no-hit path
  }
  return out;
}

function run(label: string, index: ScreeningIndex, queries: ScreeningQuery[]): void {
  for (const q of queries.slice(0, 200)) index.screen(q); // warm-up (JIT)
  const wall: number[] = [];
  const cpu: number[] = [];
  let examined = 0;
  const t0 = performance.now();
  for (const q of queries) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    examined += index.screen(q).candidatesExamined;
    wall.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const total = performance.now() - t0;
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(
    `${label}: ${queries.length} queries  wall p50 ${ms(percentile(wall, 0.5))} ms  p99 ${ms(percentile(wall, 0.99))} ms  max ${ms(wall[wall.length - 1]!)} ms | CPU p50 ${ms(percentile(cpu, 0.5))} ms  p99 ${ms(percentile(cpu, 0.99))} ms | ${(queries.length / (total / 1000)).toFixed(0)} queries/s | entities scored per query ${(examined / queries.length).toFixed(1)} of ${index.entityCount} (${((100 * examined) / queries.length / index.entityCount).toFixed(3)} %)`,
  );
}

function build(label: string, entities: ListEntity[]): ScreeningIndex {
  const h0 = heapMb();
  const t0 = performance.now();
  const index = ScreeningIndex.build(entities);
  const t = performance.now() - t0;
  console.log(
    `${label}: build ${(t / 1000).toFixed(2)} s, ${index.entityCount} entities, ${index.nameCount} names, ${index.vocabularySize} distinct words, index heap +${(heapMb() - h0).toFixed(0)} MB`,
  );
  return index;
}

// --- official lists -----------------------------------------------------------------------------
let t0 = performance.now();
const { ofac, un, uk } = officialLists();
const official = [...ofac, ...un, ...uk];
console.log(
  `\nofficial lists parsed in ${((performance.now() - t0) / 1000).toFixed(2)} s: OFAC SDN 2024-05-03 ${ofac.length}, UN ${un.length}, UK FCDO ${uk.length}`,
);
const officialIndex = build('official lists index', official);
run('official lists', officialIndex, variants(official, 5000, 7));

// --- synthetic growth ---------------------------------------------------------------------------
for (const n of skip1m ? [100_000] : [100_000, 1_000_000]) {
  t0 = performance.now();
  const synth = syntheticEntities(n, n);
  console.log(`\nsynthetic ${n} names generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const index = build(`synthetic ${n}`, synth);
  run(`synthetic ${n}`, index, variants(synth, 3000, 11));
}

// --- re-screening after a daily update ----------------------------------------------------------
const { prev, next } = ofacSnapshots();
t0 = performance.now();
const diff = diffSnapshots(prev, next);
console.log(
  `\nOFAC 2024-04-25 → 2024-05-03 diff in ${(performance.now() - t0).toFixed(0)} ms: +${diff.added.length} added, −${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.unchanged} unchanged`,
);
const subjectsN = skip1m ? 100_000 : 1_000_000;
const rnd = seeded(99);
t0 = performance.now();
const subjects: PreparedSubject[] = new Array(subjectsN);
for (let i = 0; i < subjectsN; i++) subjects[i] = prepareSubject({ subjectId: `sub_${i}`, query: { name: syntheticName(rnd) } });
// Plant 100 subjects who are (variants of) newly listed or changed entities, to check recall.
const planted = [...diff.added, ...diff.changed].filter((_, i) => i % 3 === 0).slice(0, 100);
planted.forEach((e, i) => {
  subjects[i * 997] = prepareSubject({
    subjectId: `planted_${e.id}`,
    query: { name: e.names[0]!.full.split(/[ ,]+/).reverse().join(' '), schema: e.schema },
  });
});
console.log(`${subjectsN} enrolled subjects prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s (done once, at enrolment)`);
t0 = performance.now();
const c0 = process.cpuUsage();
const r = rescreenDelta(subjects, diff);
const c = process.cpuUsage(c0);
const found = new Set(r.alerts.filter((a) => a.subjectId === `planted_${a.hit.entityId}`).map((a) => a.subjectId));
console.log(
  `re-screened ${r.subjectsScreened} subjects against ${r.deltaEntities} changed entities in ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} s CPU: ${r.alerts.length} alerts, planted subjects found ${found.size}/${planted.length}`,
);
