// Name-matching quality on the labelled pair sets in ../shared/data (run: npx tsx bench/screening-quality.ts).
// Compares Verity's matcher with a plain Jaro-Winkler baseline and OpenSanctions logic-v2 (frozen
// scores shipped with nomenklatura). List-derived cases are in bench/screening-list-cases.ts.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, officialLists, seeded } from './screening-data.js';
import { parseCsvRecords } from '../src/providers/lists/csv.js';
import { parseOfacCsv } from '../src/providers/lists/ofac-csv.js';
import { compareNames } from '../src/engines/screening/name-score.js';
import { normalizeText, prepareName } from '../src/engines/screening/normalize.js';
import { jaroWinkler } from '../src/engines/screening/jaro-winkler.js';
import { prepareEntity, prepareQuery, scoreEntity } from '../src/engines/screening/entity-score.js';
import { DEFAULT_THRESHOLD, ScreeningIndex } from '../src/engines/screening/index.js';
import { koreanReadings } from '../src/engines/screening/han-readings.js';
import type { EntitySchema, ScreeningQuery } from '../src/engines/screening/types.js';
import { legalForm } from '../src/engines/screening/name-tables.js';

const D = dataDir();
interface Counts {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}
const empty = (): Counts => ({ tp: 0, fp: 0, tn: 0, fn: 0 });
function add(c: Counts, predicted: boolean, actual: boolean): void {
  if (predicted && actual) c.tp++;
  else if (predicted) c.fp++;
  else if (actual) c.fn++;
  else c.tn++;
}
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '  –  ');
function row(label: string, c: Counts): string {
  const p = c.tp / (c.tp + c.fp);
  const r = c.tp / (c.tp + c.fn);
  const fpr = c.fp / (c.fp + c.tn);
  return `${label.padEnd(34)} n=${String(c.tp + c.fp + c.tn + c.fn).padStart(4)}  P ${f3(p)}  R ${f3(r)}  F1 ${f3((2 * p * r) / (p + r))}  FPR ${f3(fpr)}`;
}

// --- nomenklatura name_bench --------------------------------------------------------------------
const schemaOf = (s: string): EntitySchema => (s === 'Person' ? 'person' : s === 'Vessel' ? 'vessel' : 'organization');
const cases = parseCsvRecords(readFileSync(join(D, 'name_matching/nomenklatura/name_bench_cases.csv'), 'utf8'));
const frozen = new Map<string, Record<string, string>>();
for (const r of parseCsvRecords(readFileSync(join(D, 'name_matching/nomenklatura/logicv2-frozen-scores.csv'), 'utf8'))) {
  frozen.set([r.case_group, r.schema, r.name1, r.name2].join('\u0001'), r);
}
const plainJw = (a: string, b: string): number => jaroWinkler(normalizeText(a).text, normalizeText(b).text);

// Deterministic split by a hash of the pair: rule changes are checked on the "tune" half and the
// "held-out" half shows whether they generalise.
const half = (r: Record<string, string>): 'tune' | 'held-out' =>
  (createHash('sha1').update([r.case_group, r.schema, r.name1, r.name2].join('|')).digest()[0]! & 1) === 0 ? 'tune' : 'held-out';

// The kind of difference between the two names, from the pair itself (its scripts, nomenklatura's
// category/notes and the shape of the token difference), never from our score, so that the same
// pair lands in the same category before and after a change.
const SCRIPTS: Array<[string, RegExp]> = [
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['han', /\p{Script=Han}/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['thai', /\p{Script=Thai}/u],
  ['khmer', /\p{Script=Khmer}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['ethiopic', /\p{Script=Ethiopic}/u],
  ['georgian', /\p{Script=Georgian}/u],
  ['armenian', /\p{Script=Armenian}/u],
];
const scriptOf = (s: string): string => SCRIPTS.find(([, re]) => re.test(s))?.[0] ?? 'latin';
const NOTE_CATEGORIES: Array<[RegExp, string]> = [
  [/wade-giles|transliteration|phonetic replacement/i, 'romanisation system'],
  [/nickname|diminutive/i, 'nickname'],
  [/initial|abbreviation|acronym/i, 'initials / abbreviation'],
  [/digit|numeral|ordinal|series marker|vintage/i, 'numbers (digits, words, roman)'],
  [/patronymic reversal/i, 'order: father/son roles swapped'],
  [/character reversal/i, 'letters reversed (obfuscation)'],
  [/word splitting|fingerprint/i, 'words joined / split'],
  [/contextual|qualifier|country-token|prefix-token|brand-token|dropped|addition|mid-name/i, 'extra / missing words'],
];
function categoryOf(r: Record<string, string>, schema: EntitySchema): string {
  const s1 = scriptOf(r.name1!),
    s2 = scriptOf(r.name2!);
  if (s1 !== s2) return `cross-script: ${s1 === 'latin' ? s2 : s2 === 'latin' ? s1 : `${s1}/${s2}`}`;
  if (s1 !== 'latin') return `same script: ${s1}`;
  const note = `${r.category ?? ''} ${r.notes ?? ''}`;
  for (const [re, c] of NOTE_CATEGORIES) if (re.test(note)) return c;
  const words = (n: string): string[] => prepareName(n, schema).tokens.map((t) => t.text);
  const w1 = words(r.name1!),
    w2 = words(r.name2!);
  const core = (w: string[]): string[] => w.filter((t) => legalForm(t) === undefined);
  const key = (w: string[]): string => [...w].sort().join(' ');
  if (key(w1) === key(w2)) return w1.join(' ') === w2.join(' ') ? 'same words' : 'word order';
  if (key(core(w1)) === key(core(w2))) return 'legal form only';
  if (core(w1).join('') === core(w2).join('')) return 'words joined / split';
  const [short, long] = w1.length <= w2.length ? [w1, w2] : [w2, w1];
  if (short.every((t) => long.includes(t))) return 'extra / missing words';
  const onlyA = w1.filter((t) => !w2.includes(t)).length,
    onlyB = w2.filter((t) => !w1.includes(t)).length;
  if (onlyA === 1 && onlyB === 1)
    return w1.length === 1 && w2.length === 1 ? 'single word spelt differently' : 'one word differs, others shared';
  if (onlyA + onlyB === 1) return 'extra / missing words';
  if (onlyA === w1.length && onlyB === w2.length) return 'no word shared';
  return 'several words differ';
}

const ours = {
  all: empty(),
  byQuality: new Map<string, Counts>(),
  byGroup: new Map<string, Counts>(),
  byCategory: new Map<string, Counts>(),
  byHalf: new Map<string, Counts>(),
  byKind: new Map<string, Counts>(),
};
const halfQuality = new Map<string, Counts>();
const common = { ours: empty(), jw: empty(), logic: empty() };
const jwScores: Array<[number, boolean]> = [];
const ourScores: Array<[number, boolean]> = [];
const failures: string[] = [];
const bump = (m: Map<string, Counts>, k: string, p: boolean, a: boolean): void => {
  if (!m.has(k)) m.set(k, empty());
  add(m.get(k)!, p, a);
};
for (const r of cases) {
  const actual = r.is_match === 'true';
  const schema = schemaOf(r.schema!);
  const s = compareNames(prepareName(r.name1!, schema), prepareName(r.name2!, schema)).score;
  const predicted = s >= DEFAULT_THRESHOLD;
  ourScores.push([s, actual]);
  add(ours.all, predicted, actual);
  bump(ours.byQuality, r.quality || 'MEDIUM', predicted, actual);
  bump(ours.byGroup, r.case_group!, predicted, actual);
  bump(ours.byCategory, r.category || '(none)', predicted, actual);
  bump(ours.byHalf, half(r), predicted, actual);
  bump(halfQuality, `${half(r)} ${r.quality || 'MEDIUM'}`, predicted, actual);
  bump(ours.byKind, categoryOf(r, schema), predicted, actual);
  if (r.quality === 'STRONG' && predicted !== actual) failures.push(`${actual ? 'FN' : 'FP'} ${s.toFixed(3)} ${r.name1} | ${r.name2}`);
  const jw = plainJw(r.name1!, r.name2!);
  jwScores.push([jw, actual]);
  const f = frozen.get([r.case_group, r.schema, r.name1, r.name2].join('\u0001'));
  if (f) {
    add(common.ours, predicted, actual);
    add(common.jw, jw >= DEFAULT_THRESHOLD, actual);
    add(common.logic, f.predicted_match === 'true', actual);
  }
}
// The plain baseline at its own best-F1 threshold, so the comparison is not rigged by our threshold.
let bestJw = { t: 0, c: empty(), f1: 0 };
for (let t = 0.7; t <= 0.99; t += 0.01) {
  const c = empty();
  for (const [s, a] of jwScores) add(c, s >= t, a);
  const p = c.tp / (c.tp + c.fp);
  const rr = c.tp / (c.tp + c.fn);
  const f1 = (2 * p * rr) / (p + rr);
  if (f1 > bestJw.f1) bestJw = { t, c, f1 };
}

console.log(`\n== nomenklatura name_bench_cases.csv (${cases.length} pairs), threshold ${DEFAULT_THRESHOLD} ==`);
console.log(row('Verity (all cases)', ours.all));
console.log(row(`plain Jaro-Winkler @${bestJw.t.toFixed(2)} (its best F1)`, bestJw.c));
console.log(`-- on the ${common.ours.tp + common.ours.fp + common.ours.tn + common.ours.fn} cases also in logicv2-frozen-scores.csv --`);
console.log(row('Verity', common.ours));
console.log(row(`plain Jaro-Winkler @${DEFAULT_THRESHOLD}`, common.jw));
console.log(row('OpenSanctions logic-v2 (frozen)', common.logic));
// The default threshold was chosen by looking at these same cases (no held-out split): the sweep
// shows how sensitive the result is to that choice.
for (const t of [0.7, 0.75, 0.85, 0.9]) {
  const c = empty();
  for (const [x, a] of ourScores) add(c, x >= t, a);
  console.log(row(`Verity @${t} (threshold sweep)`, c));
}
// The issue's aim as two questions: the best recall at precision >= 0.95, the best precision at recall >= 0.98.
{
  let atP: [number, number, number] | undefined, atR: [number, number, number] | undefined;
  for (const t of [...new Set(ourScores.map(([x]) => x))].sort((a, b) => a - b)) {
    const c = empty();
    for (const [x, a] of ourScores) add(c, x >= t, a);
    const p = c.tp / (c.tp + c.fp),
      r = c.tp / (c.tp + c.fn);
    if (p >= 0.95 && (!atP || r > atP[2])) atP = [t, p, r];
    if (r >= 0.98 && (!atR || p > atR[1])) atR = [t, p, r];
  }
  if (atP) console.log(`best recall at precision >= 0.95: R ${f3(atP[2])} (P ${f3(atP[1])}, threshold ${atP[0].toFixed(3)})`);
  if (atR) console.log(`best precision at recall >= 0.98: P ${f3(atR[1])} (R ${f3(atR[2])}, threshold ${atR[0].toFixed(3)})`);
}
console.log('-- Verity by quality tier --');
for (const [k, c] of [...ours.byQuality].sort()) console.log(row(k, c));
console.log('-- Verity by case group --');
for (const [k, c] of [...ours.byGroup].sort()) console.log(row(k, c));
console.log('-- Verity by category (n >= 5) --');
for (const [k, c] of [...ours.byCategory].sort()) if (c.tp + c.fp + c.tn + c.fn >= 5) console.log(row(k.slice(0, 34), c));
console.log('-- Verity by half (deterministic hash split; rule changes were checked on "tune") --');
for (const [k, c] of [...ours.byHalf].sort().reverse()) console.log(row(k, c));
for (const [k, c] of [...halfQuality].sort().reverse()) console.log(row(`  ${k}`, c));
console.log('-- Verity by kind of difference (positives / negatives; FN and FP counts) --');
for (const [k, c] of [...ours.byKind].sort((a, b) => b[1].fn + b[1].fp - (a[1].fn + a[1].fp) || a[0].localeCompare(b[0]))) {
  console.log(
    `${k.padEnd(40)} pos ${String(c.tp + c.fn).padStart(3)}  neg ${String(c.tn + c.fp).padStart(3)}  FN ${String(c.fn).padStart(3)}  FP ${String(c.fp).padStart(3)}`,
  );
}
console.log(`STRONG-tier errors (${failures.length}):`);
for (const f of failures) console.log(`  ${f}`);

// --- Watchman cross-script pairs ----------------------------------------------------------------
const xs = readFileSync(join(D, 'name_matching/watchman/cross_script_pairs.csv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split(','));
console.log(`\n== watchman cross_script_pairs.csv (${xs.length} pairs): score >= upstream minimum? ==`);
let pass = 0;
for (const [q, e, min, desc] of xs) {
  const s = compareNames(prepareName(q!), prepareName(e!)).score;
  if (s >= Number(min)) pass++;
  console.log(`  ${s >= Number(min) ? 'ok  ' : 'MISS'} ${s.toFixed(3)} (min ${min}) ${q} ~ ${e}  [${desc}]`);
}
console.log(`  passed ${pass}/${xs.length}`);

// --- Watchman Jaro-Winkler expectations ---------------------------------------------------------
const jwRows = parseCsvRecords(readFileSync(join(D, 'name_matching/watchman/jaro_winkler_expected_scores.csv'), 'utf8'));
let agree = 0,
  single = 0,
  singleAgree = 0;
for (const r of jwRows) {
  const a = normalizeText(r.indexed_name!).text,
    b = normalizeText(r.query_name!).text;
  const ok = Math.abs(jaroWinkler(a, b) - Number(r.expected_score)) <= 0.02;
  if (ok) agree++;
  if (!a.includes(' ') && !b.includes(' ') && a && b) {
    single++;
    if (ok) singleAgree++;
  }
}
console.log(
  `\n== watchman jaro_winkler_expected_scores.csv: plain JW within ±0.02 on ${agree}/${jwRows.length} rows; single-token rows ${singleAgree}/${single} (Watchman's score is a token-pair variant with its own penalties, so only single tokens are comparable) ==`,
);

// --- Watchman entity similarity cases (ordering) ------------------------------------------------
const mini = join(D, 'sanctions/ofac_sdn_csv_mini');
const miniEntities = parseOfacCsv(
  Object.fromEntries(['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv'].map((f) => [f, readFileSync(join(mini, f))])),
);
const ec = JSON.parse(readFileSync(join(D, 'name_matching/watchman/entity_similarity_cases.json'), 'utf8')) as {
  cases: Array<{ index_ent_num: string; name: string; expected: number; query: Record<string, unknown> }>;
};
console.log(`\n== watchman entity_similarity_cases.json (${ec.cases.length} cases vs ofac_sdn_csv_mini) ==`);
const typeMap: Record<string, EntitySchema> = { person: 'person', business: 'organization', vessel: 'vessel', aircraft: 'aircraft' };
const byEntity = new Map<string, Array<[number, number]>>();
for (const c of ec.cases) {
  const e = miniEntities.find((x) => x.id === `ofac-sdn:${c.index_ent_num}`);
  if (!e) continue;
  const q = c.query;
  const ids = [
    ...((q.emails as string[] | undefined) ?? []).map((v) => ({ type: 'email', value: v })),
    ...((q.governmentIDs as Array<{ type: string; identifier: string }> | undefined) ?? []).map((g) => ({
      type: g.type.includes('tax') ? 'tax_id' : 'registration',
      value: g.identifier,
    })),
    ...(['imo', 'mmsi', 'callSign'] as const)
      .filter((k) => q[k])
      .map((k) => ({ type: k === 'callSign' ? 'call_sign' : k, value: String(q[k]) })),
  ];
  const query: ScreeningQuery = {
    name: String(q.name),
    schema: typeMap[String(q.type)] ?? 'unknown',
    birthDate: typeof q.birthDate === 'string' ? q.birthDate.slice(0, 10) : undefined,
    identifiers: ids,
  };
  const s = scoreEntity(prepareQuery(query), prepareEntity(e)).score;
  (byEntity.get(c.index_ent_num) ?? byEntity.set(c.index_ent_num, []).get(c.index_ent_num)!).push([c.expected, s]);
  console.log(`  ${c.index_ent_num} expected ${c.expected.toFixed(3)} ours ${s.toFixed(3)}  ${c.name}`);
}
let concordant = 0,
  pairs = 0;
for (const list of byEntity.values())
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const [ei, si] = list[i]!;
      const [ej, sj] = list[j]!;
      if (Math.abs(ei - ej) < 0.05) continue;
      pairs++;
      if (Math.sign(ei - ej) === Math.sign(si - sj)) concordant++;
    }
console.log(`  ordering agreement with Watchman (pairs of cases on the same entity whose expected scores differ): ${concordant}/${pairs}`);

// --- Han-script names: alert volume on random names (unlabelled) --------------------------------
// Japanese and Korean readings of Han names (han-readings.ts) can only add hits. No labelled set of
// kanji/hanja names against list entries exists here, so this counts how many random, made-up names
// hit the official lists at all: names in hanja with Korean surnames, the same kind of names written in
// hangul (what a Korean reading is matched as), names in simplified Chinese and Japanese names.
{
  const { ofac, un, uk } = officialLists();
  const index = ScreeningIndex.build([...ofac, ...un, ...uk]);
  const rnd = seeded(7);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
  const ko = {
    s: [...'金李朴崔鄭姜趙尹張林'],
    g: [...'正英成哲浩永光明秀賢俊東大仁世在鎭泰相容鐘基洙植元錫勳敏淑順子熙美玉貞惠珍京根國日春男鎬民宇載昌善恩虎學道一三萬吉'],
  };
  const zh = { s: [...'王李张刘陈杨黄赵吴周'], g: [...'伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚桂英华玉兰文辉建国红志海'] };
  const jaS = [
    '佐藤',
    '鈴木',
    '高橋',
    '田中',
    '渡辺',
    '伊藤',
    '山本',
    '中村',
    '小林',
    '加藤',
    '吉田',
    '山田',
    '佐々木',
    '山口',
    '松本',
    '井上',
    '木村',
    '林',
    '斎藤',
    '清水',
  ];
  const jaG = [
    '太郎',
    '一郎',
    '健',
    '誠',
    '浩',
    '大輔',
    '翔太',
    '花子',
    '陽子',
    '美咲',
    '恵子',
    '裕子',
    '直樹',
    '隆',
    '博',
    '明',
    '茂',
    '学',
    '修',
    '聡',
  ];
  const hanja = Array.from({ length: 2000 }, () => pick(ko.s) + pick(ko.g) + pick(ko.g));
  const sets: Array<[string, string[]]> = [
    ['Korean names in hanja', hanja],
    ['the same names in hangul', hanja.map((n) => koreanReadings(n)[0] ?? n)],
    ['Chinese names, simplified', Array.from({ length: 2000 }, () => pick(zh.s) + pick(zh.g) + (rnd() < 0.7 ? pick(zh.g) : ''))],
    ['Japanese names (20 x 20)', jaS.flatMap((s) => jaG.map((g) => s + g))],
  ];
  console.log(
    `\n== Han-script names: random names with a hit on OFAC + UN + UK (${index.entityCount} entities), threshold ${DEFAULT_THRESHOLD}; unlabelled ==`,
  );
  for (const [label, names] of sets) {
    const hit = names.filter((name) => index.screen({ name, schema: 'person' }).hits.length > 0).length;
    console.log(
      `  ${label.padEnd(28)} ${String(names.length).padStart(5)} names, ${String(hit).padStart(4)} with a hit (${((100 * hit) / names.length).toFixed(1)} %)`,
    );
  }
}
