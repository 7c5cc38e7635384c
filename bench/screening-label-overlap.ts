// How far name-only evidence can separate the nomenklatura pairs that differ in exactly one word
// (the largest error kind): `npx tsx bench/screening-label-overlap.ts` (SHOW=1 lists Verity's errors).
// For every Latin-script pair whose words are the same except one word on each side, it takes the two
// differing words and tabulates the labels against how similar those words are (Jaro-Winkler, edit
// distance), then Verity's outcome per edit count. The label tables do not use Verity's scores.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from './screening-data.js';
import { parseCsvRecords } from '../src/providers/lists/csv.js';
import { prepareName } from '../src/engines/screening/normalize.js';
import { jaroWinkler } from '../src/engines/screening/jaro-winkler.js';
import { levenshtein } from '../src/engines/screening/levenshtein.js';
import type { EntitySchema } from '../src/engines/screening/types.js';
import { compareNames } from '../src/engines/screening/name-score.js';
import { DEFAULT_THRESHOLD } from '../src/engines/screening/index.js';

const schemaOf = (s: string): EntitySchema => (s === 'Person' ? 'person' : s === 'Vessel' ? 'vessel' : 'organization');
const cases = parseCsvRecords(readFileSync(join(dataDir(), 'name_matching/nomenklatura/name_bench_cases.csv'), 'utf8'));
const LATIN = /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]*$/u;

interface Pair {
  score: number;
  a: string;
  b: string;
  shared: number;
  jw: number;
  edits: number;
  match: boolean;
  names: string;
}
const pairs: Pair[] = [];
for (const r of cases) {
  if (!LATIN.test(r.name1!) || !LATIN.test(r.name2!)) continue;
  const schema = schemaOf(r.schema!);
  const w1 = prepareName(r.name1!, schema).tokens.map((t) => t.text);
  const w2 = prepareName(r.name2!, schema).tokens.map((t) => t.text);
  const only1 = w1.filter((t) => !w2.includes(t));
  const only2 = w2.filter((t) => !w1.includes(t));
  if (only1.length !== 1 || only2.length !== 1 || w1.length < 2 || w2.length < 2) continue;
  const [a, b] = [only1[0]!, only2[0]!];
  pairs.push({
    score: compareNames(prepareName(r.name1!, schema), prepareName(r.name2!, schema)).score,
    a,
    b,
    shared: w1.length - 1,
    jw: jaroWinkler(a, b),
    edits: levenshtein(a, b),
    match: r.is_match === 'true',
    names: `${r.name1} | ${r.name2}`,
  });
}
const pos = pairs.filter((p) => p.match),
  neg = pairs.filter((p) => !p.match);
console.log(
  `pairs differing in exactly one word (Latin script, ≥ 2 words): ${pairs.length} (${pos.length} match, ${neg.length} non-match)`,
);

console.log('\n| Jaro-Winkler of the differing words | match | non-match |\n|---|---:|---:|');
for (const [lo, hi] of [
  [0, 0.5],
  [0.5, 0.7],
  [0.7, 0.8],
  [0.8, 0.9],
  [0.9, 0.95],
  [0.95, 1.01],
] as const) {
  const inB = (p: Pair) => p.jw >= lo && p.jw < hi;
  console.log(`| ${lo.toFixed(2)}–${hi >= 1 ? '1.00' : hi.toFixed(2)} | ${pos.filter(inB).length} | ${neg.filter(inB).length} |`);
}
console.log('\n| edits between the differing words | match | non-match |\n|---|---:|---:|');
for (const e of [1, 2, 3, 4]) {
  const inB = (p: Pair) => (e === 4 ? p.edits >= 4 : p.edits === e);
  console.log(`| ${e === 4 ? '≥ 4' : e} | ${pos.filter(inB).length} | ${neg.filter(inB).length} |`);
}

// The same pair labelled both ways (case- and order-insensitive).
const labels = new Map<string, Set<string>>();
for (const r of cases) {
  const k = [r.name1!.trim().toLowerCase(), r.name2!.trim().toLowerCase()].sort().join(' | ');
  labels.set(k, (labels.get(k) ?? new Set()).add(r.is_match!));
}
const both = [...labels].filter(([, v]) => v.size > 1).map(([k]) => k);
console.log(`\npairs labelled both match and non-match: ${both.length}${both.length ? ` (${both.join('; ')})` : ''}`);

// Verity's own outcome on these pairs, by edit count of the differing words.
console.log('\n| edits | Verity TP | FN | FP | TN |\n|---|---:|---:|---:|---:|');
for (const e of [1, 2, 3, 4]) {
  const inB = (p: Pair) => (e === 4 ? p.edits >= 4 : p.edits === e);
  const c = { tp: 0, fn: 0, fp: 0, tn: 0 };
  for (const p of pairs.filter(inB)) {
    const hit = p.score >= DEFAULT_THRESHOLD;
    if (p.match) hit ? c.tp++ : c.fn++;
    else hit ? c.fp++ : c.tn++;
    if (process.env.SHOW && hit !== p.match) console.log(`    ${p.match ? 'FN' : 'FP'} ${p.score.toFixed(3)} ${p.names} (${p.a}/${p.b})`);
  }
  console.log(`| ${e === 4 ? '≥ 4' : e} | ${c.tp} | ${c.fn} | ${c.fp} | ${c.tn} |`);
}
