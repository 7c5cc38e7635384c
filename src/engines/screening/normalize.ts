import { hangulForeignReading, transliterate } from './transliterate.js';
import { HONORIFICS, LEGAL_FORM_PHRASES, PARTICLES, legalForm } from './name-tables.js';
import { phoneticKey, consonantSkeleton } from './phonetic.js';
import { wadeGilesToPinyin } from './wade-giles.js';
import { hanReadings } from './han-readings.js';
import { katakanaForeignReading } from './kana.js';
import { hanTranscriptions } from './han-transcription.js';
import { tamilTranscription } from './tamil.js';
import type { TranscriptionUnit } from './transcription.js';
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
  /**
   * A word of a transcription (a foreign name in Chinese characters or in Tamil): its syllables with the
   * Latin spellings each may stand for, compared with Latin words syllable by syllable (transcription.ts).
   */
  units?: readonly TranscriptionUnit[];
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
  /**
   * Other readings of the same name, tried by the scorer besides this one (a Wade-Giles name's pinyin;
   * a Han-script name's Japanese and Korean readings, han-readings.ts); the screening index stores and
   * probes their words too.
   */
  alts?: PreparedName[];
}

// Letters that NFKD does not decompose into base + mark.
const SPECIAL_LATIN: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ı: 'i',
  þ: 'th',
  ħ: 'h',
  ŀ: 'l',
  ĸ: 'k',
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
export function prepareName(original: string, schema: EntitySchema = 'unknown', alternatives = true): PreparedName {
  const isOrg = schema === 'organization' || schema === 'unknown';
  const isPerson = schema === 'person' || schema === 'unknown';
  // English writes a compound number with a hyphen ("Forty-Four"): joined here, it becomes one number below.
  const { text, abjad } = normalizeText(isOrg ? original.replace(HYPHENATED_NUMBER_RE, '$1$2') : original);
  let words = (isOrg ? applyLegalPhrases(text) : text).split(' ').filter(Boolean);
  if (isPerson && words.length > 2) {
    // Only strip honorifics when a real name remains ("General" alone may be the name).
    const kept = words.filter((w) => !HONORIFICS.has(w));
    if (kept.length >= 2) words = kept;
  }
  if (isOrg) words = numberWords(words);
  // "JC Juncker": two or three consonants with no vowel are a person's joined initials, not a word.
  // Only for names not from an abjad (whose transliterations are vowelless words), and never for the
  // vowelless words Latin-script names do have: surnames and transliteration digraphs (Ng, Dj),
  // abbreviations (Md for Muhammad, Sk, Jr, Sr) and honorifics (Dr).
  if (schema === 'person' && !abjad)
    words = words.flatMap((w) => (/^[b-df-hj-np-tv-xz]{2,3}$/.test(w) && !VOWELLESS_WORDS.has(w) && !HONORIFICS.has(w) ? [...w] : [w]));
  if (schema === 'organization') words = mergeInitials(words);
  const tokens = words.map((w) => {
    const kind = classify(w, isOrg);
    return makeToken(kind === 'legal' ? (legalForm(w) ?? w) : w, kind);
  });
  const compact = tokens
    .filter((t) => t.kind !== 'legal')
    .map((t) => t.text)
    .join('');
  const han = HAN_ONLY_RE.test(original) ? original.replace(/[^\p{Script=Han}]/gu, '') : undefined;
  const prepared: PreparedName = han ? { original, tokens, compact, abjad, han } : { original, tokens, compact, abjad };
  // A Chinese name in Wade-Giles also gets its pinyin reading, the spelling Han characters are read in;
  // a name in Han characters its Japanese and Korean readings besides the Mandarin one; a hangul or
  // katakana transcription of a foreign name a reading without the vowels these scripts add.
  if (isPerson && alternatives) {
    const wadeGiles = wadeGilesToPinyin(original);
    const foreign = [hangulForeignReading(original), katakanaForeignReading(original)].filter((r): r is string => !!r);
    const readings = [...(wadeGiles ? [wadeGiles] : []), ...hanReadings(original), ...foreign];
    const alts = readings.map((r) => prepareName(r, schema, false)).filter((a) => a.tokens.length && a.compact !== compact);
    alts.push(...transcriptionReadings(original));
    if (alts.length) prepared.alts = alts;
  }
  return prepared;
}

/**
 * A name written as a transcription of a foreign name, in Chinese characters (han-transcription.ts) or
 * in Tamil (tamil.ts), as readings whose words carry their syllables; empty for any other name.
 */
function transcriptionReadings(original: string): PreparedName[] {
  const readings: Array<Array<{ text: string; units: readonly TranscriptionUnit[] }>> = hanTranscriptions(original);
  if (!readings.length) {
    const raw = original
      .normalize('NFKC')
      .split(/[\s·,.\-‐]+/u)
      .filter(Boolean);
    const units = tamilTranscription(raw);
    if (units) readings.push(raw.map((w, i) => ({ text: normalizeText(w).text.replace(/ /g, ''), units: units[i]! })));
  }
  const out: PreparedName[] = [];
  for (const words of readings) {
    const tokens = words.filter((w) => w.text).map((w) => ({ ...makeToken(w.text, 'word'), units: w.units }));
    if (tokens.length) out.push({ original, tokens, compact: tokens.map((t) => t.text).join(''), abjad: false });
  }
  return out;
}

const VOWELLESS_WORDS: ReadonlySet<string> = new Set([
  'ng',
  'dj',
  'md',
  'mhd',
  'sk',
  'jr',
  'sr',
  'st',
  'th',
  'sh',
  'ch',
  'kh',
  'gh',
  'zh',
  'ph',
]);

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const TENS_WORDS = 'twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety|ninty';
const UNIT_WORDS = 'one|two|three|four|five|six|seven|eight|nine';
const HYPHENATED_NUMBER_RE = new RegExp(`\\b(${TENS_WORDS})\\s*[-‐‑–]\\s*(${UNIT_WORDS})\\b`, 'gi');
const COMPOUND_NUMBER_RE = new RegExp(`^(${TENS_WORDS})(${UNIT_WORDS})$`);

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
 * weighs as a number. Only the hyphenated compound is one number, as English spells it: unhyphenated
 * words stay separate numbers, so reordered words ("Eight Eighty Eleven") keep the same numbers.
 */
function numberWords(words: string[]): string[] {
  return words.map((w) => {
    const compound = COMPOUND_NUMBER_RE.exec(w);
    if (compound) return String(numberWord(compound[1]!, TENS) * 10 + numberWord(compound[2]!, UNITS));
    const tens = numberWord(w, TENS);
    if (tens >= 2) return String(tens * 10);
    const unit = numberWord(w, UNITS);
    return unit >= 0 ? String(unit) : w;
  });
}

/** "A.B.C. Company" is the acronym "abc", not three initials. */
function mergeInitials(words: string[]): string[] {
  const out: string[] = [];
  let run = '';
  for (const w of words) {
    if (w.length === 1 && /[a-z]/.test(w)) {
      run += w;
      continue;
    }
    if (run) {
      out.push(run);
      run = '';
    }
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
