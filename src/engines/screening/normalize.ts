import { transliterate } from './transliterate.js';
import { HONORIFICS, LEGAL_FORM_PHRASES, PARTICLES, legalForm } from './name-tables.js';
import { phoneticKey, consonantSkeleton } from './phonetic.js';
import type { EntitySchema } from './types.js';

export type TokenKind = 'word' | 'legal' | 'particle' | 'initial' | 'number';

export interface NameToken {
  text: string;
  phon: string;
  /** Consonant skeleton, filled for every token so either side can be compared with an abjad one. */
  skel: string;
  kind: TokenKind;
  weight: number;
  /** Query tokens only: similarity to candidate words already compared in this query. */
  memo?: Map<string, number>;
}

/** A name prepared once (at index build or query time) so scoring never re-normalises. */
export interface PreparedName {
  original: string;
  tokens: NameToken[];
  /** All non-legal tokens joined in their original order: catches "Abd Allah" vs "Abdallah". */
  compact: string;
  /** Tokens came from Arabic or Hebrew script. */
  abjad: boolean;
  /** The name's Han characters when it is written in Han characters only (compared as characters against another such name). */
  han?: string;
}

// Letters that NFKD does not decompose into base + mark.
const SPECIAL_LATIN: Record<string, string> = {
  ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', ı: 'i', þ: 'th', ħ: 'h', ŀ: 'l', ĸ: 'k',
};
const SPECIAL_RE = /[ßæøœłđðıþħŀĸ]/g;
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's' };

/** Unicode-normalised, transliterated, lower-case ASCII words separated by single spaces. */
export function normalizeText(input: string): { text: string; abjad: boolean } {
  const t = transliterate(input.normalize('NFKC'));
  const text = t.text
    .replace(SPECIAL_RE, (c) => SPECIAL_LATIN[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    // Apostrophes join ("O'Brien" is "obrien"); other punctuation separates.
    .replace(/['’‘`ʼʻ]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    // Digits inside words are look-alike letters ("Ig0r Sech1n"); whole numbers stay numbers.
    .replace(/\b(?=\w*[a-z])(?=\w*[0-9])\w+\b/g, (w) => w.replace(/[01345]/g, (d) => LEET[d] ?? d));
  return { text, abjad: t.abjad };
}

const WEIGHTS: Record<TokenKind, number> = { word: 1, number: 0.8, initial: 0.3, particle: 0.25, legal: 0.15 };

// Roman numerals distinguish sibling entities ("Fund VIII" vs "Fund IX") just as digits do.
const ROMAN = /^(?:ii|iii|iv|vi|vii|viii|ix|xi|xii|xiii|xiv|xv)$/;

function classify(tok: string, isOrg: boolean): TokenKind {
  if (/^[0-9]+$/.test(tok) || (isOrg && ROMAN.test(tok))) return 'number';
  if (tok.length === 1) return 'initial';
  if (PARTICLES.has(tok)) return 'particle';
  if (isOrg && legalForm(tok) !== undefined) return 'legal';
  return 'word';
}

function applyLegalPhrases(text: string): string {
  let s = ` ${text} `;
  for (const [phrase, canon] of LEGAL_FORM_PHRASES) {
    if (s.includes(` ${phrase} `)) s = s.split(` ${phrase} `).join(canon ? ` ${canon} ` : ' ');
  }
  return s.trim();
}

const HAN_ONLY_RE = /^[\p{Script=Han}\s·・]*\p{Script=Han}[\p{Script=Han}\s·・]*$/u;

function makeToken(text: string, kind: TokenKind): NameToken {
  return { text, phon: phoneticKey(text), skel: consonantSkeleton(text), kind, weight: WEIGHTS[kind] };
}

/**
 * Prepares a name for matching. Order is kept only for the compact form; scoring aligns tokens
 * regardless of order, so "PUTIN, Vladimir" and "Vladimir Putin" are the same name.
 */
export function prepareName(original: string, schema: EntitySchema = 'unknown'): PreparedName {
  const { text, abjad } = normalizeText(original);
  const isOrg = schema === 'organization' || schema === 'unknown';
  const isPerson = schema === 'person' || schema === 'unknown';
  let words = (isOrg ? applyLegalPhrases(text) : text).split(' ').filter(Boolean);
  if (isPerson && words.length > 2) {
    // Only strip honorifics when a real name remains ("General" alone may be the name).
    const kept = words.filter((w) => !HONORIFICS.has(w));
    if (kept.length >= 2) words = kept;
  }
  if (isOrg) words = numberWords(words);
  // "JC Juncker": two or three consonants with no vowel are a person's joined initials, not a word.
  // Only for names not from an abjad (whose transliterations are vowelless words) and never "ng" (a surname).
  if (schema === 'person' && !abjad) words = words.flatMap((w) => (/^[b-df-hj-np-tv-xz]{2,3}$/.test(w) && w !== 'ng' ? [...w] : [w]));
  if (schema === 'organization') words = mergeInitials(words);
  const tokens = words.map((w) => {
    const kind = classify(w, isOrg);
    return makeToken(kind === 'legal' ? (legalForm(w) ?? w) : w, kind);
  });
  const compact = tokens.filter((t) => t.kind !== 'legal').map((t) => t.text).join('');
  const han = HAN_ONLY_RE.test(original) ? original.replace(/[^\p{Script=Han}]/gu, '') : undefined;
  return han ? { original, tokens, compact, abjad, han } : { original, tokens, compact, abjad };
}

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
// Common misspellings only: a fuzzy lookup would read "Steven" as seven and "Forte" as forty.
const TENS_MISSPELT: Record<string, number> = { fourty: 4, ninty: 9 };
function numberWord(w: string, table: readonly string[]): number {
  const i = table.indexOf(w);
  if (i >= 0 || table !== TENS) return i;
  return TENS_MISSPELT[w] ?? -1;
}

/**
 * English number words become digits in organisation names ("Brigade Forty-Four" is "Brigade 44",
 * "Three Percenters" is "3 Percenters"), so that a number reads the same however it is written and
 * keeps the weight of a number (a different number is a different entity).
 */
function numberWords(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const tens = numberWord(w, TENS);
    if (tens >= 2) {
      const next = words[i + 1] ?? '';
      const unit = /^[1-9]$/.test(next) ? Number(next) : numberWord(next, UNITS);
      if (unit >= 1 && unit <= 9) { out.push(String(tens * 10 + unit)); i++; } else out.push(String(tens * 10));
      continue;
    }
    const unit = numberWord(w, UNITS);
    out.push(unit >= 0 ? String(unit) : w);
  }
  return out;
}

/** "A.B.C. Company" is the acronym "abc", not three initials. */
function mergeInitials(words: string[]): string[] {
  const out: string[] = [];
  let run = '';
  for (const w of words) {
    if (w.length === 1 && /[a-z]/.test(w)) { run += w; continue; }
    if (run) { out.push(run); run = ''; }
    out.push(w);
  }
  if (run) out.push(run);
  return out;
}

/** The weight a name's tokens carry in total; legal forms and particles count for little. */
export function totalWeight(tokens: readonly NameToken[]): number {
  let w = 0;
  for (const t of tokens) w += t.weight;
  return w;
}
