import { jaroWinkler } from './jaro-winkler.js';
import { sameNameGroup, withinOneEdit } from './name-tables.js';
import type { NameToken, PreparedName } from './normalize.js';
import { levenshteinRatio } from './levenshtein.js';

/** Token pairs below this similarity are not aligned: they count as different words. */
export const PAIR_MIN = 0.78;
/** Weight factor for words present on one side only (a missing middle name is a mild doubt). */
const EXTRA_PENALTY = 0.3;

export interface TokenPair {
  query: string;
  candidate: string;
  similarity: number;
}

export interface NameComparison {
  score: number;
  pairs: TokenPair[];
  /** Query words with no counterpart (and the candidate had unmatched words too: a contradiction). */
  conflictingQuery: string[];
  conflictingCandidate: string[];
  /** Words only one side has, such as a middle name. */
  extra: string[];
  /** Matched as one joined string ("abd allah" ~ "abdallah"). */
  compact: boolean;
}

/** Similarity of two normalised tokens, folding spelling variants that are not typos. */
export function tokenSimilarity(a: NameToken, b: NameToken, abjad: boolean): number {
  if (a.text === b.text) return 1;
  if (a.kind === 'number' || b.kind === 'number') return 0;
  if (a.kind === 'initial' || b.kind === 'initial') {
    // An initial stands for any word starting with that letter; it proves little, hence the low weight.
    return a.text[0] === b.text[0] ? 0.9 : 0;
  }
  const jw = jaroWinkler(a.text, b.text);
  if (jw >= 0.97 && Math.min(a.text.length, b.text.length) >= 5) return jw;
  // Jaro-Winkler alone forgives a shared prefix too much ("Sancho"/"Sanchez", "Ronaldinho"/"Ronaldo");
  // blending in the edit ratio keeps one-letter typos high and penalises rewritten endings.
  let s = (jw + levenshteinRatio(a.text, b.text)) / 2;
  // A single edit in a word of five letters or more is how typos look; rewritten endings need more.
  if (Math.min(a.text.length, b.text.length) >= 5 && withinOneEdit(a.text, b.text)) s = Math.max(s, jw, 0.93);
  if (sameNameGroup(a.text, b.text)) s = Math.max(s, 0.9);
  // Phonetic equality only vouches for tokens long enough for the key to carry information.
  if (a.phon === b.phon && (a.phon.length >= 3 || Math.max(a.text.length, b.text.length) <= 3)) s = Math.max(s, Math.min(0.93, 0.86 + 0.01 * Math.min(a.text.length, b.text.length)));
  if (abjad && a.skel.length > 0 && b.skel.length > 0) {
    if (a.skel === b.skel) s = Math.max(s, 0.92);
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

/**
 * Order-independent name similarity in 0..1 with the alignment that produced it. When either name has
 * an alternative reading (normalize.ts `alt`), the best of the readings counts.
 */
export function compareNames(q: PreparedName, c: PreparedName): NameComparison {
  let best = compareReading(q, c);
  if (q.alt || c.alt) {
    for (const [a, b] of [[q.alt ?? q, c], [q, c.alt ?? c], [q.alt ?? q, c.alt ?? c]] as const) {
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
    return { score: round3(score), pairs: [{ query: q.han, candidate: c.han, similarity: round3(score) }], conflictingQuery: [], conflictingCandidate: [], extra: [], compact: false };
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
      if (s >= PAIR_MIN) cand.push([s, i, j]);
    }
  }
  // Greedy one-to-one alignment; exact ties prefer heavier tokens so names beat particles.
  cand.sort((x, y) => y[0] - x[0] || (qt[y[1]]!.weight + ct[y[2]]!.weight) - (qt[x[1]]!.weight + ct[x[2]]!.weight));
  const usedQ = new Uint8Array(qt.length);
  const usedC = new Uint8Array(ct.length);
  const pairs: TokenPair[] = [];
  let pairedW = 0;
  let gained = 0;
  for (const [s, i, j] of cand) {
    if (usedQ[i] || usedC[j]) continue;
    usedQ[i] = 1;
    usedC[j] = 1;
    const a = qt[i]!;
    const b = ct[j]!;
    const w = (a.weight + b.weight) / 2;
    pairedW += w;
    gained += w * credit(s);
    pairs.push({ query: a.text, candidate: b.text, similarity: round3(s) });
  }
  // Initials count towards contradictions ("Hans O." vs "Hans Joachim") but are too weak to matter
  // when only one side has them; a number only one side has ("Fund 23") always contradicts.
  let hardQ = 0, hardC = 0, soft = 0, numbers = 0;
  const conflictingQuery: string[] = [];
  const conflictingCandidate: string[] = [];
  const extra: string[] = [];
  qt.forEach((t, i) => { if (!usedQ[i]) { if (isSoft(t)) soft += t.weight; else if (t.kind === 'number') numbers += t.weight; else { hardQ += t.weight; conflictingQuery.push(t.text); } } });
  ct.forEach((t, j) => { if (!usedC[j]) { if (isSoft(t)) soft += t.weight; else if (t.kind === 'number') numbers += t.weight; else { hardC += t.weight; conflictingCandidate.push(t.text); } } });
  const conflict = Math.min(hardQ, hardC) + numbers;
  const oneSidedW = Math.abs(hardQ - hardC) + soft;
  // The first missing word costs most; further ones (long Arabic nasab chains) cost less each.
  const oneSided = Math.min(oneSidedW, 1) + Math.max(0, oneSidedW - 1) * 0.5;
  // Words present on only one side are "extra", not contradictions.
  if (hardQ === 0 || hardC === 0) { extra.push(...conflictingQuery, ...conflictingCandidate); conflictingQuery.length = 0; conflictingCandidate.length = 0; }
  let score = pairedW > 0 ? gained / (pairedW + 2 * conflict + oneSided * EXTRA_PENALTY) : 0;
  let compact = false;
  if (qt.length !== ct.length || score < 0.9) {
    const cs = compactSimilarity(q, c, abjad);
    if (cs > score) { score = cs; compact = true; }
  }
  // "X bin Y" is X, son of Y: the same two names on the other sides of bin/ibn name the father as the son.
  if (rolesSwapped(qt, ct, pairs)) score *= ROLE_SWAP_FACTOR;
  // A name made of initials only ("N.N.") says too little to be a match on its own.
  if (initialsOnly(qt) || initialsOnly(ct)) score = Math.min(score, INITIALS_ONLY_CAP);
  return { score: round3(Math.min(1, score)), pairs, conflictingQuery, conflictingCandidate, extra, compact };
}

const ROLE_SWAP_FACTOR = 0.7;
const INITIALS_ONLY_CAP = 0.7;
const PATRONYMIC = new Set(['bin', 'ibn', 'bint', 'ben', 'ould', 'walad']);

function initialsOnly(tokens: readonly NameToken[]): boolean {
  return tokens.length > 0 && tokens.some((t) => t.kind === 'initial') && tokens.every((t) => t.kind === 'initial' || t.kind === 'particle');
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
  if (qt.findIndex((t, i) => i > qb && PATRONYMIC.has(t.text)) >= 0 || ct.findIndex((t, i) => i > cb && PATRONYMIC.has(t.text)) >= 0) return false;
  const side = (tokens: readonly NameToken[], b: number, text: string): number => {
    const i = tokens.findIndex((t) => t.text === text);
    return i < 0 ? 0 : i < b ? -1 : i > b ? 1 : 0;
  };
  let swapped = false;
  for (const p of pairs) {
    if (PATRONYMIC.has(p.query)) continue;
    const sq = side(qt, qb, p.query), sc = side(ct, cb, p.candidate);
    if (sq === 0 || sc === 0) continue;
    if (sq === sc) continue;
    // Only the words adjacent to the particle may swap; any other word changing sides means reordering.
    const qi = qt.findIndex((t) => t.text === p.query), ci = ct.findIndex((t) => t.text === p.candidate);
    if (Math.abs(qi - qb) === 1 && Math.abs(ci - cb) === 1) swapped = true;
    else return false;
  }
  return swapped;
}

function compactSimilarity(q: PreparedName, c: PreparedName, abjad: boolean): number {
  const a = q.compact;
  const b = c.compact;
  if (a.length < 5 || b.length < 5) return 0;
  if (a === b) return 0.97;
  // A legal form written into the name ("SiemensAG") is the same name as with a space ("Siemens AG").
  const fa = q.tokens.map((t) => t.text).join(''), fb = c.tokens.map((t) => t.text).join('');
  if (fa === fb && (fa !== a || fb !== b)) return 0.97;
  // The ratio cannot reach 0.88 when the lengths alone differ by more than 12 %.
  const r = Math.abs(a.length - b.length) <= 0.12 * Math.max(a.length, b.length) ? levenshteinRatio(a, b) : 0;
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

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
