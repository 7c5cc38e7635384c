// Syllable-aware comparison of a transcription with a Latin word. Some scripts write a foreign name one
// syllable at a time with a limited stock of signs, and one sign stands for several Latin spellings:
// Chinese writes Vladimir 弗拉基米尔 (fu-la-ji-mi-er: 弗 for v, 基 for a palatal d, 尔 for a final r),
// Tamil has no letters for voiced stops (தாவூத் "tavut" is Dawood). Read letter by letter such a name
// stays far from its Latin spelling, so it is kept as a sequence of units, each with the Latin spellings
// it may stand for, and compared with a Latin word by a weighted edit distance in which each unit
// contributes the spelling that fits best (transcriptionSimilarity). Retrieval uses coarse consonant
// keys (transcriptionKeys / latinKey): the classes of the consonants, which the unit options fix.

/** One written unit (a Han character, a Tamil syllable) and the Latin spellings it may stand for, with a cost each. */
export type TranscriptionUnit = ReadonlyArray<readonly [latin: string, cost: number]>;

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
const isVowel = (c: string): boolean => VOWELS.has(c);

function subCost(a: string, b: string): number {
  if (a === b) return 0;
  if (isVowel(a) && isVowel(b)) return (a === 'e' && b === 'i') || (a === 'i' && b === 'e') || (a === 'o' && b === 'u') || (a === 'u' && b === 'o') ? 0.25 : 0.45;
  if ((a === 'y' && b === 'i') || (a === 'i' && b === 'y')) return 0.2;
  if ((a === 'w' && b === 'u') || (a === 'u' && b === 'w') || (a === 'w' && b === 'v') || (a === 'v' && b === 'w')) return 0.3;
  return 1;
}

/** Cost of a Latin letter no unit spelling accounts for: vowels, h of digraphs, doubled letters are cheap. */
function insCost(word: string, j: number): number {
  const c = word[j]!;
  const prev = word[j - 1];
  if (c === prev) return 0.2;
  if (c === 'h' && prev !== undefined && !isVowel(prev)) return 0.25;
  if (c === 'h') return 0.5;
  if (isVowel(c)) return 0.5;
  if (c === 'y' || c === 'w') return 0.4;
  return 1;
}

function delCost(c: string): number {
  return isVowel(c) ? 0.5 : c === 'h' || c === 'y' || c === 'w' ? 0.4 : 1;
}

/**
 * Least total cost of spelling `word` with one option of each unit in order (0 when some choice of
 * options spells it exactly).
 */
export function transcriptionCost(units: readonly TranscriptionUnit[], word: string): number {
  const m = word.length;
  let row = new Float64Array(m + 1);
  for (let j = 1; j <= m; j++) row[j] = row[j - 1]! + insCost(word, j - 1);
  let next = new Float64Array(m + 1);
  let cur = new Float64Array(m + 1);
  for (const unit of units) {
    next.fill(Infinity);
    for (const [latin, cost] of unit) {
      for (let j = 0; j <= m; j++) cur[j] = row[j]! + cost;
      for (const ch of latin) {
        const prev = cur;
        const out = new Float64Array(m + 1);
        out[0] = prev[0]! + delCost(ch);
        for (let j = 1; j <= m; j++) {
          out[j] = Math.min(prev[j]! + delCost(ch), out[j - 1]! + insCost(word, j - 1), prev[j - 1]! + subCost(ch, word[j - 1]!));
        }
        cur = out;
      }
      // Latin letters left over between this unit and the next.
      for (let j = 1; j <= m; j++) cur[j] = Math.min(cur[j]!, cur[j - 1]! + insCost(word, j - 1));
      for (let j = 0; j <= m; j++) if (cur[j]! < next[j]!) next[j] = cur[j]!;
    }
    [row, next] = [next, row];
  }
  return row[m]!;
}

/** Most a transcription can say about a Latin spelling: exact agreement of every unit is still a reading, not the spelling. */
export const TRANSCRIPTION_CEILING = 0.95;

/** Similarity in 0..TRANSCRIPTION_CEILING of a transcription and a Latin word. */
export function transcriptionSimilarity(units: readonly TranscriptionUnit[], word: string): number {
  if (!word.length || !units.length) return 0;
  const cost = transcriptionCost(units, word);
  // A cost is judged against the Latin word's length, with a floor so that a short word cannot be
  // matched by luck, and against the number of units: every unit should be used.
  const s = 1 - cost / Math.max(word.length, 4);
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
  for (const unit of units) {
    const pieces = new Set(unit.map(([latin]) => latinKey(latin)));
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
