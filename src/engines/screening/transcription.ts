// Syllable-aware comparison of a transcription with a Latin word. Some scripts write a foreign name one
// syllable at a time with a limited stock of signs, and one sign stands for several Latin spellings:
// Chinese writes Vladimir 弗拉基米尔 (fu-la-ji-mi-er: 弗 for v, 基 for a palatal d, 尔 for a final r),
// Tamil has no letters for voiced stops (தாவூத் "tavut" is Dawood). Read letter by letter such a name
// stays far from its Latin spelling, so it is kept as a sequence of units, each with the Latin spellings
// it may stand for, and compared with a Latin word by a weighted edit distance in which each unit
// contributes the spelling that fits best (transcriptionSimilarity). Retrieval uses coarse consonant
// keys (transcriptionKeys / latinKey): the classes of the consonants, which the unit options fix.

/** Latin spellings one part of a unit may stand for, with a cost each. */
export type TranscriptionPart = ReadonlyArray<readonly [latin: string, cost: number]>;
/**
 * One written unit (a Han character, a Tamil syllable) as its parts in order (consonant, vowel), each
 * with the Latin spellings it may stand for: the unit spells any concatenation of one option per part.
 */
export type TranscriptionUnit = readonly TranscriptionPart[];

const isVowel = (c: string): boolean => c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';

function subCost(a: string, b: string): number {
  if (a === b) return 0;
  if (isVowel(a) && isVowel(b))
    return (a === 'e' && b === 'i') || (a === 'i' && b === 'e') || (a === 'o' && b === 'u') || (a === 'u' && b === 'o') ? 0.25 : 0.45;
  if ((a === 'y' && b === 'i') || (a === 'i' && b === 'y')) return 0.2;
  if ((a === 'w' && b === 'u') || (a === 'u' && b === 'w') || (a === 'w' && b === 'v') || (a === 'v' && b === 'w')) return 0.3;
  return 1;
}

/** Cost of a Latin letter no unit spelling accounts for: vowels, h of digraphs, doubled letters are cheap. */
function insCost(word: string, j: number): number {
  const c = word[j]!;
  const prev = word[j - 1];
  if (c === prev) return 0.2;
  // Latin writes k as ck ("Barack"): the c says nothing a transcription could show.
  if (c === 'c' && word[j + 1] === 'k') return 0.2;
  if (c === 'h' && prev !== undefined && !isVowel(prev)) return 0.25;
  if (c === 'h') return 0.5;
  if (isVowel(c)) return 0.5;
  if (c === 'y' || c === 'w') return 0.4;
  return 1;
}

function delCost(c: string): number {
  return isVowel(c) ? 0.5 : c === 'h' || c === 'y' || c === 'w' ? 0.4 : 1;
}

// Letters a..z as 0..25; anything else shares slot 26.
const code = (c: string): number => {
  const x = c.charCodeAt(0) - 97;
  return x >= 0 && x < 26 ? x : 26;
};
const LETTERS = 'abcdefghijklmnopqrstuvwxyz?';
const SUB = new Float64Array(27 * 27);
const DEL = new Float64Array(27);
for (let i = 0; i < 27; i++) {
  DEL[i] = delCost(LETTERS[i]!);
  for (let j = 0; j < 27; j++) SUB[i * 27 + j] = i === 26 || j === 26 ? 1 : subCost(LETTERS[i]!, LETTERS[j]!);
}

/** A unit's options as letter codes, computed once per unit. */
const compiled = new WeakMap<TranscriptionPart, Array<[Uint8Array, number]>>();
function compile(unit: TranscriptionPart): Array<[Uint8Array, number]> {
  let c = compiled.get(unit);
  if (!c) {
    c = unit.map(([latin, cost]) => [Uint8Array.from([...latin].map(code)), cost]);
    compiled.set(unit, c);
  }
  return c;
}

/** Shortest and longest Latin spelling a transcription allows. */
export function spellingLengths(units: readonly TranscriptionUnit[]): [number, number] {
  let lo = 0,
    hi = 0;
  for (const u of units)
    for (const part of u) {
      let a = Infinity,
        b = 0;
      for (const [latin] of part) {
        a = Math.min(a, latin.length);
        b = Math.max(b, latin.length);
      }
      lo += a;
      hi += b;
    }
  return [lo, hi];
}

/**
 * Least total cost of spelling `word` with one option of each unit in order (0 when some choice of
 * options spells it exactly); Infinity as soon as it must exceed `limit`.
 */
export function transcriptionCost(units: readonly TranscriptionUnit[], word: string, limit = Infinity): number {
  const m = word.length;
  const w = new Uint8Array(m);
  const ins = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    w[j] = code(word[j]!);
    ins[j] = insCost(word, j);
  }
  let row = new Float64Array(m + 1);
  for (let j = 1; j <= m; j++) row[j] = row[j - 1]! + ins[j - 1]!;
  let next = new Float64Array(m + 1);
  let a = new Float64Array(m + 1);
  let b = new Float64Array(m + 1);
  for (const unit of units)
    for (const part of unit) {
      next.fill(Infinity);
      for (const [letters, cost] of compile(part)) {
        for (let j = 0; j <= m; j++) a[j] = row[j]! + cost;
        for (let k = 0; k < letters.length; k++) {
          const ch = letters[k]!;
          const del = DEL[ch]!;
          const sub = ch * 27;
          b[0] = a[0]! + del;
          for (let j = 1; j <= m; j++) {
            const x = a[j]! + del;
            const y = b[j - 1]! + ins[j - 1]!;
            const z = a[j - 1]! + SUB[sub + w[j - 1]!]!;
            b[j] = x < y ? (x < z ? x : z) : y < z ? y : z;
          }
          const t = a;
          a = b;
          b = t;
        }
        // Latin letters left over between this unit and the next.
        for (let j = 1; j <= m; j++) if (a[j - 1]! + ins[j - 1]! < a[j]!) a[j] = a[j - 1]! + ins[j - 1]!;
        for (let j = 0; j <= m; j++) if (a[j]! < next[j]!) next[j] = a[j]!;
      }
      const t = row;
      row = next;
      next = t;
      let least = Infinity;
      for (let j = 0; j <= m; j++) if (row[j]! < least) least = row[j]!;
      if (least > limit) return Infinity;
    }
  return row[m]! > limit ? Infinity : row[m]!;
}

/** Most a transcription can say about a Latin spelling: exact agreement of every unit is still a reading, not the spelling. */
export const TRANSCRIPTION_CEILING = 0.95;

/** Similarity in 0..TRANSCRIPTION_CEILING of a transcription and a Latin word (0 when below `minimum`, if given). */
export function transcriptionSimilarity(units: readonly TranscriptionUnit[], word: string, minimum = -1): number {
  if (!word.length || !units.length) return 0;
  // A cost is judged against the Latin word's length, with a floor so that a short word cannot be
  // matched by luck.
  const scale = Math.max(word.length, 4);
  const cost = transcriptionCost(units, word, minimum < 0 ? Infinity : (1 - minimum) * scale);
  const s = 1 - cost / scale;
  return Math.max(0, Math.min(TRANSCRIPTION_CEILING, s));
}

// ---- retrieval keys ----------------------------------------------------------------------------------
// A coarse key is the word's consonants by class: P labials (b p f v), T dentals (d t), K velars
// (g k c q), S sibilants and affricates (s z c ch sh j zh x ts dz), R liquids (l r), M, N (n, ng).
// h, w and y and the vowels are left out: transcriptions add or drop them freely.

/** Coarse key of a Latin word. */
export function latinKey(word: string): string {
  const s = word
    .replace(/ng(?![aeiou])/g, 'n')
    .replace(/sch|tch|dzh|ch|sh|zh|dj|ts|tz|dz|j|x/g, 'S')
    .replace(/ph/g, 'P')
    .replace(/ck|kh|gh|q/g, (d) => (d === 'kh' ? '' : 'K'))
    .replace(/c(?=[eiy])/g, 'S')
    .replace(/c/g, 'K')
    .replace(/th/g, 'T');
  let out = '';
  for (const ch of s) {
    const k = CLASS[ch];
    if (k === undefined || k === '') continue;
    if (out[out.length - 1] !== k) out += k;
  }
  return out;
}

const CLASS: Record<string, string> = {
  b: 'P',
  p: 'P',
  f: 'P',
  v: 'P',
  P: 'P',
  d: 'T',
  t: 'T',
  T: 'T',
  g: 'K',
  k: 'K',
  K: 'K',
  s: 'S',
  z: 'S',
  S: 'S',
  l: 'R',
  r: 'R',
  m: 'M',
  n: 'N',
};

const MAX_KEYS = 256;

/**
 * The coarse keys a transcription may have: one per combination of its units' options (options with
 * the same consonant classes count once). Undefined when there would be more than MAX_KEYS.
 */
export function transcriptionKeys(units: readonly TranscriptionUnit[]): string[] | undefined {
  let keys = new Set<string>(['']);
  for (const part of units.flat()) {
    const pieces = new Set(part.map(([latin]) => latinKey(latin)));
    const out = new Set<string>();
    for (const k of keys) {
      for (const p of pieces) {
        out.add(k && p && k[k.length - 1] === p[0] ? k + p.slice(1) : k + p);
        if (out.size > MAX_KEYS) return undefined;
      }
    }
    keys = out;
  }
  return [...keys];
}

/** The keys a Latin word is indexed under: its key, and without a final nasal (Chinese drops a final ng: 莱 lai for "Hlaing"). */
export function latinKeys(word: string): string[] {
  const k = latinKey(word);
  return k.length > 1 && k.endsWith('N') ? [k, k.slice(0, -1)] : [k];
}
