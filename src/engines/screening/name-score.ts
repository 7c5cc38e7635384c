import { jaroWinkler } from './jaro-winkler.js';
import { sameNameGroup, withinOneEdit } from './name-tables.js';
import type { NameToken, PreparedName } from './normalize.js';
import { levenshtein, levenshteinRatio } from './levenshtein.js';
import { phoneticSpelling } from './phonetic.js';
import { TRANSCRIPTION_CEILING, transcriptionSimilarity, type TranscriptionUnit } from './transcription.js';

/**
 * Token pairs at or above this similarity are aligned in full. Below it two words that would otherwise
 * contradict each other still pair, partly aligned and partly contradicting (compareReading).
 */
export const PAIR_MIN = 0.78;
/** Weight factor for words present on one side only (a missing middle name is a mild doubt). */
const EXTRA_PENALTY = 0.3;
/**
 * Most that spelling alone gives two words three or more edits apart: the weakest aligned pair. (Two
 * edits get no floor of their own: see docs/screening.md, Quality, for what a floor cost.)
 */
const OVER_BUDGET_CAP = PAIR_MIN;
/**
 * Most edits a joined-string comparison may find: it is there for words split or joined differently,
 * and two edits are the most a word may differ by before spelling alone stops aligning it in full.
 */
const COMPACT_MAX_EDITS = 2;
/** Below this similarity credit() gives a pair nothing. */
const TRANSCRIPTION_FLOOR = 0.58;

export interface TokenPair {
  query: string;
  candidate: string;
  similarity: number;
}

export interface NameComparison {
  score: number;
  pairs: TokenPair[];
  /**
   * Query words with no counterpart or only a weak one below PAIR_MIN (also listed in `pairs` with its
   * similarity), when the candidate had such words too: a contradiction.
   */
  conflictingQuery: string[];
  conflictingCandidate: string[];
  /** Words only one side has, such as a middle name. */
  extra: string[];
  /** Matched as one joined string ("abd allah" ~ "abdallah"). */
  compact: boolean;
}

/**
 * Similarity of two spellings from their letters alone: Jaro-Winkler blended with the edit ratio, a
 * one-edit typo floor, and the edit budget.
 */
function spellingSimilarity(a: string, b: string): number {
  const jw = jaroWinkler(a, b);
  const edits = levenshtein(a, b);
  const shorter = Math.min(a.length, b.length);
  let s: number;
  if (jw >= 0.97 && shorter >= 5) s = jw;
  else {
    // Jaro-Winkler alone forgives a shared prefix too much ("Sancho"/"Sanchez", "Ronaldinho"/"Ronaldo");
    // blending in the edit ratio keeps one-letter typos high and penalises rewritten endings.
    s = (jw + 1 - edits / Math.max(a.length, b.length)) / 2;
    // A single edit in a word of five letters or more is how typos look; rewritten endings need more.
    if (shorter >= 5 && withinOneEdit(a, b)) s = Math.max(s, jw, 0.93);
  }
  // Three edits or more are not a misspelling however long the word ("Ronaldinho"/"Ronaldo",
  // "Abdurrahim"/"Abdurrahman"), though Jaro-Winkler forgives them in long words: spelling alone makes
  // them at best the weakest aligned pair. Known variants, phonetic keys and consonant skeletons below
  // are other evidence and may still raise the pair.
  if (edits >= 3) s = Math.min(s, OVER_BUDGET_CAP);
  return s;
}

/** Similarity of two normalised tokens, folding spelling variants that are not typos. */
export function tokenSimilarity(a: NameToken, b: NameToken, abjad: boolean): number {
  if (a.text === b.text) return 1;
  if (a.kind === 'number' || b.kind === 'number') return 0;
  // A transcription's word is compared syllable by syllable with the other side's letters (two
  // transcriptions compare their readings as any two words do).
  // Below TRANSCRIPTION_FLOOR a pair earns no credit (credit() is 0), so the comparison may stop early.
  if (a.units && !b.units) return b.kind === 'initial' ? 0 : transcriptionSimilarity(a.units, b.text, TRANSCRIPTION_FLOOR);
  if (b.units && !a.units) return a.kind === 'initial' ? 0 : transcriptionSimilarity(b.units, a.text, TRANSCRIPTION_FLOOR);
  if (a.kind === 'initial' || b.kind === 'initial') {
    // An initial stands for any word starting with that letter; it proves little, hence the low weight.
    return a.text[0] === b.text[0] ? 0.9 : 0;
  }
  let s = spellingSimilarity(a.text, b.text);
  if (sameNameGroup(a.text, b.text)) s = Math.max(s, 0.9);
  // Phonetic equality only vouches for tokens long enough for the key to carry information, and never
  // for more than the letters still show: the key drops vowels and keeps six consonants, so on its own
  // it pairs "warehouse" with "virreyes" and "tours" with "terraza". The two words are compared again
  // in the key's spelling with their vowels (phoneticSpelling: "mohsen" and "muhsin" become equal,
  // "umar" and "amru" stay two edits apart), and that similarity is what the key may raise them to.
  if (a.phon === b.phon && (a.phon.length >= 3 || Math.max(a.text.length, b.text.length) <= 3)) {
    const pa = phoneticSpelling(a.text),
      pb = phoneticSpelling(b.text);
    const ps = pa === pb ? 1 : spellingSimilarity(pa, pb);
    s = Math.max(s, Math.min(ps, 0.86 + 0.01 * Math.min(a.text.length, b.text.length), 0.93));
  }
  if (abjad && a.skel.length > 0 && b.skel.length > 0) {
    if (a.skel === b.skel) s = Math.max(s, 0.92);
    // ف stands for a foreign v too (the skeleton writes v as b): "fladymyr" ~ "vladimir".
    else if (a.skel.replace(/f/g, 'b') === b.skel || a.skel === b.skel.replace(/f/g, 'b')) s = Math.max(s, 0.88);
    else s = Math.max(s, jaroWinkler(a.skel, b.skel) * 0.9);
  }
  return s;
}

// Credit for an aligned pair: near-equal tokens keep their similarity, looser ones lose more than
// linearly so that two mediocre tokens cannot add up to a confident name match.
function credit(s: number): number {
  if (s >= 0.93) return s;
  return Math.max(0, s - (0.93 - s) * 1.6);
}

function isSoft(t: NameToken): boolean {
  return t.kind === 'legal' || t.kind === 'particle';
}

/** Words whose absence on one side is a contradiction when the other side has an unmatched one too. */
function isHard(t: NameToken): boolean {
  return !isSoft(t) && t.kind !== 'number';
}

/**
 * Order-independent name similarity in 0..1 with the alignment that produced it. When either name has
 * alternative readings (normalize.ts `alts`), the best of the readings counts.
 */
export function compareNames(q: PreparedName, c: PreparedName): NameComparison {
  let best = compareReading(q, c);
  // Two names in Han characters are compared as characters only: their readings coincide for different
  // characters (Korean 正 and 政 are both 정).
  if ((!q.alts && !c.alts) || (q.han && c.han)) return best;
  for (const a of [q, ...(q.alts ?? [])]) {
    for (const b of [c, ...(c.alts ?? [])]) {
      if (a === q && b === c) continue;
      const r = compareReading(a, b);
      if (r.score > best.score) best = r;
    }
  }
  return best;
}

function compareReading(q: PreparedName, c: PreparedName): NameComparison {
  // Two names written in Han characters are compared as characters: each character is a morpheme, and
  // characters that read alike are different names (高市 ≠ 高石), so the pinyin reading is only for
  // crossing to Latin. (Traditional and simplified forms of one character count as different here.)
  if (q.han && c.han) {
    const score = q.han === c.han ? 1 : levenshteinRatio(q.han, c.han);
    return {
      score: round3(score),
      pairs: [{ query: q.han, candidate: c.han, similarity: round3(score) }],
      conflictingQuery: [],
      conflictingCandidate: [],
      extra: [],
      compact: false,
    };
  }
  const qt = q.tokens;
  const ct = c.tokens;
  const abjad = q.abjad || c.abjad;
  const cand: Array<[number, number, number]> = [];
  for (let i = 0; i < qt.length; i++) {
    const qi = qt[i]!;
    // Similarity with an abjad candidate differs (skeleton rules), so only Latin candidates share the memo.
    const memo = c.abjad && !q.abjad ? undefined : qi.memo;
    for (let j = 0; j < ct.length; j++) {
      const cj = ct[j]!;
      let s = memo?.get(cj.text);
      if (s === undefined) {
        s = tokenSimilarity(qi, cj, abjad);
        memo?.set(cj.text, s);
      }
      // Below PAIR_MIN only two words that would otherwise contradict each other may pair (weakly).
      if (s >= PAIR_MIN || (credit(s) > 0 && isHard(qi) && isHard(cj))) cand.push([s, i, j]);
    }
  }
  // Greedy one-to-one alignment, most similar first, so weak pairs only take words left over by the
  // aligned ones; exact ties prefer heavier tokens so names beat particles.
  cand.sort((x, y) => y[0] - x[0] || qt[y[1]]!.weight + ct[y[2]]!.weight - (qt[x[1]]!.weight + ct[x[2]]!.weight));
  const usedQ = new Uint8Array(qt.length);
  const usedC = new Uint8Array(ct.length);
  const pairs: TokenPair[] = [];
  const aligned: TokenPair[] = [];
  let pairedW = 0;
  let gained = 0;
  // Initials count towards contradictions ("Hans O." vs "Hans Joachim") but are too weak to matter
  // when only one side has them; a number only one side has ("Fund 23") always contradicts.
  let hardQ = 0,
    hardC = 0;
  const conflictingQuery: string[] = [];
  const conflictingCandidate: string[] = [];
  for (const [s, i, j] of cand) {
    if (usedQ[i] || usedC[j]) continue;
    usedQ[i] = 1;
    usedC[j] = 1;
    const a = qt[i]!;
    const b = ct[j]!;
    const w = (a.weight + b.weight) / 2;
    const pair = { query: a.text, candidate: b.text, similarity: round3(s) };
    pairs.push(pair);
    // A pair below PAIR_MIN is aligned only in the proportion of credit it still earns against the
    // weakest aligned pair; the rest of its two words contradicts. At PAIR_MIN this is a full alignment,
    // where credit reaches 0 a full contradiction, so the score has no step in between.
    const share = s >= PAIR_MIN ? 1 : credit(s) / credit(PAIR_MIN);
    if (share === 1) aligned.push(pair);
    else {
      hardQ += (1 - share) * a.weight;
      hardC += (1 - share) * b.weight;
      conflictingQuery.push(a.text);
      conflictingCandidate.push(b.text);
    }
    pairedW += share * w;
    gained += share * w * credit(s);
  }
  const extra: string[] = [];
  const leftQ = leftover(qt, usedQ);
  const leftC = leftover(ct, usedC);
  const oneQ = leftQ.words,
    oneC = leftC.words;
  hardQ += leftQ.hard;
  hardC += leftC.hard;
  const conflict = Math.min(hardQ, hardC) + leftQ.numbers + leftC.numbers;
  const oneSidedW = Math.abs(hardQ - hardC) + leftQ.soft + leftC.soft;
  // The first missing word costs most; further ones (long Arabic nasab chains) cost less each.
  const oneSided = Math.min(oneSidedW, 1) + Math.max(0, oneSidedW - 1) * 0.5;
  // Words present on only one side are "extra", not contradictions.
  if (hardQ === 0 || hardC === 0) extra.push(...oneQ, ...oneC);
  else {
    conflictingQuery.push(...oneQ);
    conflictingCandidate.push(...oneC);
  }
  let score = pairedW > 0 ? gained / (pairedW + 2 * conflict + oneSided * EXTRA_PENALTY) : 0;
  let compact = false;
  if (qt.length !== ct.length || score < 0.9) {
    const cs = compactSimilarity(q, c, abjad);
    if (cs > score) {
      score = cs;
      compact = true;
    }
  }
  // "X bin Y" is X, son of Y: the same two names on the other sides of bin/ibn name the father as the son.
  if (rolesSwapped(qt, ct, aligned)) score *= ROLE_SWAP_FACTOR;
  // A name made of initials only ("N.N.") says too little to be a match on its own.
  if (initialsOnly(qt) || initialsOnly(ct)) score = Math.min(score, INITIALS_ONLY_CAP);
  return { score: round3(Math.min(1, score)), pairs, conflictingQuery, conflictingCandidate, extra, compact };
}

/** Weights of one name's unaligned words by kind, and the hard words themselves. */
function leftover(tokens: readonly NameToken[], used: Uint8Array): { soft: number; numbers: number; hard: number; words: string[] } {
  const out = { soft: 0, numbers: 0, hard: 0, words: [] as string[] };
  tokens.forEach((t, i) => {
    if (used[i]) return;
    if (isSoft(t)) out.soft += t.weight;
    else if (t.kind === 'number') out.numbers += t.weight;
    else {
      out.hard += t.weight;
      out.words.push(t.text);
    }
  });
  return out;
}

const ROLE_SWAP_FACTOR = 0.7;
const INITIALS_ONLY_CAP = 0.7;
const PATRONYMIC = new Set(['bin', 'ibn', 'bint', 'ben', 'ould', 'walad']);

function initialsOnly(tokens: readonly NameToken[]): boolean {
  return (
    tokens.length > 0 && tokens.some((t) => t.kind === 'initial') && tokens.every((t) => t.kind === 'initial' || t.kind === 'particle')
  );
}

/**
 * True when both names have one patronymic particle and a word right before it on one side is aligned
 * with the word right after it on the other ("Salman bin Muhammad" vs "Muhammad bin Salman"), while
 * every other aligned word stays on the same side of the particle (a name written fully reversed,
 * family name first, is not a role swap).
 */
function rolesSwapped(qt: readonly NameToken[], ct: readonly NameToken[], pairs: readonly TokenPair[]): boolean {
  const qb = qt.findIndex((t) => PATRONYMIC.has(t.text));
  const cb = ct.findIndex((t) => PATRONYMIC.has(t.text));
  if (qb <= 0 || cb <= 0 || qb >= qt.length - 1 || cb >= ct.length - 1) return false;
  // A chain ("Tarek bin Habib bin al-Toumi") shifts positions when one link is left out: only a single
  // "X bin Y" on each side is read for roles.
  if (qt.findIndex((t, i) => i > qb && PATRONYMIC.has(t.text)) >= 0 || ct.findIndex((t, i) => i > cb && PATRONYMIC.has(t.text)) >= 0)
    return false;
  const side = (tokens: readonly NameToken[], b: number, text: string): number => {
    const i = tokens.findIndex((t) => t.text === text);
    return i < 0 ? 0 : i < b ? -1 : i > b ? 1 : 0;
  };
  let swapped = false;
  for (const p of pairs) {
    if (PATRONYMIC.has(p.query)) continue;
    const sq = side(qt, qb, p.query),
      sc = side(ct, cb, p.candidate);
    if (sq === 0 || sc === 0) continue;
    if (sq === sc) continue;
    // Only the words adjacent to the particle may swap; any other word changing sides means reordering.
    const qi = qt.findIndex((t) => t.text === p.query),
      ci = ct.findIndex((t) => t.text === p.candidate);
    if (Math.abs(qi - qb) === 1 && Math.abs(ci - cb) === 1) swapped = true;
    else return false;
  }
  return swapped;
}

function compactSimilarity(q: PreparedName, c: PreparedName, abjad: boolean): number {
  const a = q.compact;
  const b = c.compact;
  // A transcription written as one word (敏昂莱, Min Aung Hlaing: Chinese writes a Burmese name without
  // breaks) against a name of several words joined.
  const one =
    q.tokens.length === 1 && c.tokens.length > 1
      ? q.tokens[0]!.units
      : c.tokens.length === 1 && q.tokens.length > 1
        ? c.tokens[0]!.units
        : undefined;
  if (one) return joinedTranscription(one, q.tokens.length === 1 ? c : q);
  if (a.length < 5 || b.length < 5) return 0;
  if (a === b) return 0.97;
  // A legal form written into the name ("SiemensAG") is the same name as with a space ("Siemens AG").
  const fa = q.tokens.map((t) => t.text).join(''),
    fb = c.tokens.map((t) => t.text).join('');
  if (fa === fb && (fa !== a || fb !== b)) return 0.97;
  // The ratio cannot reach 0.88 when the lengths alone differ by more than 12 %.
  // A different word inside a long name is not a joining difference: the joined strings get the same
  // absolute edit budget as a word.
  const d = Math.abs(a.length - b.length) <= 0.12 * Math.max(a.length, b.length) ? levenshtein(a, b) : Infinity;
  const r = d <= COMPACT_MAX_EDITS ? 1 - d / Math.max(a.length, b.length) : 0;
  let s = r >= 0.88 ? r * 0.95 : 0;
  if (abjad) {
    const sa = q.tokens.map((t) => t.skel).join('');
    const sb = c.tokens.map((t) => t.skel).join('');
    if (sa.length >= 3 && sa === sb) s = Math.max(s, 0.9);
    else if (sa.length >= 6 && sb.length >= 6) {
      const r = levenshteinRatio(sa, sb);
      if (r >= 0.85) s = Math.max(s, r * 0.95);
    }
  }
  return s;
}

function joinedTranscription(units: readonly TranscriptionUnit[], other: PreparedName): number {
  if (other.tokens.some((t) => t.units) || other.compact.length < 5) return 0;
  return Math.min(TRANSCRIPTION_CEILING, transcriptionSimilarity(units, other.compact)) * 0.97;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
