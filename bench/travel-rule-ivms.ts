// IVMS101 validation throughput: `node --import tsx bench/travel-rule-ivms.ts`.
// Inputs: the two TRP inquiry payloads and the TRISA identity payloads from ../shared/data/travel_rule
// (canonical JSON as received, and the protojson one through the normaliser). Each document is validated
// in a loop of rounds; the figures are validations per second and per-call percentiles (single thread).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { normalizeIvms101, validateIvms101 } from '../src/engines/travel-rule/index.js';
import { percentile } from './lib/stats.js';

const root = fileURLToPath(new URL('../../shared/data/travel_rule/', import.meta.url));
if (!existsSync(root)) {
  console.log(`skipped: needs ${root} (not in a bare clone)`);
  process.exit(0);
}
const read = (f: string): unknown => JSON.parse(readFileSync(root + f, 'utf8'));
const cases: { name: string; bytes: number; run: () => boolean }[] = [];
for (const f of ['trisa_openvasp_trp/inquiry.json', 'trisa_openvasp_trp/client/inquiry.json']) {
  const doc = (read(f) as { IVMS101: unknown }).IVMS101;
  cases.push({ name: `${f} (IVMS101, strict)`, bytes: JSON.stringify(doc).length, run: () => validateIvms101(doc).valid });
}
const identity = read('trisa_ivms101/identity_payload.json');
cases.push({
  name: 'trisa_ivms101/identity_payload.json (strict)',
  bytes: JSON.stringify(identity).length,
  run: () => validateIvms101(identity).valid,
});
const pb = read('trisa_ivms101/identity_payload.pb.json');
cases.push({
  name: 'trisa_ivms101/identity_payload.pb.json (normalise + lenient)',
  bytes: JSON.stringify(pb).length,
  run: () => validateIvms101(normalizeIvms101(pb).value, { profile: 'lenient' }).valid,
});

const ROUNDS = 20;
const PER_ROUND = 1000;
console.log(
  `# IVMS101 validation, ${cases.length} documents from shared/data/travel_rule, ${ROUNDS} × ${PER_ROUND} calls each, node ${process.version}`,
);
console.log('\n| document | bytes | valid | validations/s | p50 µs | p99 µs |\n|---|---:|---|---:|---:|---:|');
for (const c of cases) {
  for (let i = 0; i < 2000; i++) c.run(); // warm-up: JIT and ajv's compiled validators
  const perCall: number[] = [];
  let ok = true;
  const t0 = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    const s = performance.now();
    for (let i = 0; i < PER_ROUND; i++) ok = c.run() && ok;
    perCall.push(((performance.now() - s) * 1000) / PER_ROUND);
  }
  const total = performance.now() - t0;
  const rate = Math.round((ROUNDS * PER_ROUND) / (total / 1000));
  console.log(
    `| ${c.name} | ${c.bytes} | ${ok} | ${rate.toLocaleString('en')} | ${percentile(perCall, 50).toFixed(1)} | ${percentile(perCall, 99).toFixed(1)} |`,
  );
}
console.log('\np50/p99 are over rounds of 1,000 calls (mean µs per call within a round), not single calls.');
