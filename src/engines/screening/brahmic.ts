// Indic scripts other than Devanagari, Khmer and Burmese to Latin, in the spellings names of these
// languages take in passports and sanctions lists (no diacritics).
//
// Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada and Malayalam share Devanagari's layout:
// Unicode placed each in a block of 128 code points at the same offsets (from ISCII), so a letter is
// read through its Devanagari counterpart (devanagari.ts: inherent a, virama, Hunterian spelling). The
// few letters without one (Malayalam chillus, Bengali khanda ta, Gurmukhi tippi and addak) are mapped
// first. The Hindi final-schwa deletion applies to all of them, which suits Bengali and Punjabi names
// more than Dravidian ones (Kannada ರಾಮ reads "ram", written "Rama" too).
//
// Khmer and Burmese are read syllable by syllable with small tables of our own: consonant, subscript or
// medial consonants, vowel sign, final consonant. Khmer vowels depend on the consonant's series (ហុន
// "hun" but ស៊ុន "sun"); Burmese rhymes depend on the final (အောင် "aung", လှိုင် "hlaing").
import { devanagariToLatin } from './devanagari.js';

const INDIC_RE = /[\u0980-\u0D7F]/;
export function hasIndic(s: string): boolean {
  return INDIC_RE.test(s);
}

const INDIC_SPECIAL: Record<string, string> = {
  '\u09CE': 'त्', // Bengali khanda ta
  '\u0A70': 'ं', // Gurmukhi tippi (nasal)
  '\u0A71': '', // Gurmukhi addak (doubles the next consonant; Latin spellings mostly write it once)
  '\u0A72': 'इ',
  '\u0A73': 'उ',
  '\u0A75': '',
  '\u0D7A': 'ण्', // Malayalam chillu letters: a consonant without its vowel
  '\u0D7B': 'न्',
  '\u0D7C': 'र्',
  '\u0D7D': 'ल्',
  '\u0D7E': 'ळ्',
  '\u0D7F': 'क्',
  '\u0D4E': 'र्', // Malayalam dot reph
  '\u0BB4': 'ऴ', // Tamil zha
};

/** Romanises Bengali … Malayalam letters through their Devanagari counterparts. */
export function indicToLatin(input: string): string {
  // In Telugu, Kannada and Malayalam a word-final anusvara is an m (ఇబ్రహీం "ibrahim"), not the
  // nasalisation Hindi writes n.
  const finalM = input.replace(/[\u0C02\u0C82\u0D02](?![\u0C00-\u0D7F])/g, 'म्');
  const dev = finalM.replace(/[\u0980-\u0D7F]/g, (c) => {
    const special = INDIC_SPECIAL[c];
    if (special !== undefined) return special;
    return String.fromCharCode(0x0900 + (c.charCodeAt(0) & 0x7f));
  });
  return devanagariToLatin(dev);
}

// ---- Khmer ----------------------------------------------------------------------------------------
const KHMER_RE = /[\u1780-\u17FF]/;
export function hasKhmer(s: string): boolean {
  return KHMER_RE.test(s);
}
// Consonant, its series (1: inherent "a", 2: inherent "o").
const KHMER_CONSONANT: Record<string, [string, 1 | 2]> = {
  ក: ['k', 1],
  ខ: ['kh', 1],
  គ: ['k', 2],
  ឃ: ['kh', 2],
  ង: ['ng', 2],
  ច: ['ch', 1],
  ឆ: ['chh', 1],
  ជ: ['ch', 2],
  ឈ: ['chh', 2],
  ញ: ['nh', 2],
  ដ: ['d', 1],
  ឋ: ['th', 1],
  ឌ: ['d', 2],
  ឍ: ['th', 2],
  ណ: ['n', 1],
  ត: ['t', 1],
  ថ: ['th', 1],
  ទ: ['t', 2],
  ធ: ['th', 2],
  ន: ['n', 2],
  ប: ['b', 1],
  ផ: ['ph', 1],
  ព: ['p', 2],
  ភ: ['ph', 2],
  ម: ['m', 2],
  យ: ['y', 2],
  រ: ['r', 2],
  ល: ['l', 2],
  វ: ['v', 2],
  ឝ: ['s', 1],
  ឞ: ['s', 1],
  ស: ['s', 1],
  ហ: ['h', 1],
  ឡ: ['l', 1],
  អ: ['', 1],
};
// Dependent vowels: [after a first-series consonant, after a second-series one] (UNGEGN, simplified).
const KHMER_VOWEL: Record<string, [string, string]> = {
  'ា': ['a', 'ea'],
  'ិ': ['e', 'i'],
  'ី': ['ei', 'i'],
  'ឹ': ['oe', 'ue'],
  'ឺ': ['eu', 'ue'],
  'ុ': ['o', 'u'],
  'ូ': ['ou', 'u'],
  'ួ': ['uo', 'uo'],
  'ើ': ['aeu', 'eu'],
  'ឿ': ['oea', 'oea'],
  'ៀ': ['ie', 'ie'],
  'េ': ['e', 'e'],
  'ែ': ['ae', 'ae'],
  'ៃ': ['ai', 'ey'],
  'ោ': ['ao', 'o'],
  'ៅ': ['au', 'ov'],
};
const KHMER_INDEPENDENT: Record<string, string> = {
  ឥ: 'e',
  ឦ: 'ei',
  ឧ: 'o',
  ឩ: 'ou',
  ឪ: 'ov',
  ឫ: 'rue',
  ឬ: 'rue',
  ឭ: 'lue',
  ឮ: 'lue',
  ឯ: 'ae',
  ឰ: 'ai',
  ឱ: 'ao',
  ឲ: 'ao',
  ឳ: 'au',
};
const KHMER_COENG = '\u17D2';
const KHMER_TO_FIRST = '\u17C9'; // muusikatoan: second series read as first
const KHMER_TO_SECOND = '\u17CA'; // triisap: first series read as second
// Final consonants read differently from initials.
const KHMER_FINAL: Record<string, string> = { ប: 'p', ព: 'p', ច: 'ch', ជ: 'ch', ញ: 'nh', ស: 's', រ: '', ល: 'l', ហ: 'h' };

function isKhmerMark(c: string | undefined): boolean {
  return c !== undefined && c >= '\u17B6' && c <= '\u17D3';
}

/** Romanises Khmer letters; other characters pass through. */
export function khmerToLatin(input: string): string {
  const s = [...input];
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    const cons = KHMER_CONSONANT[c];
    if (!cons) {
      if (KHMER_INDEPENDENT[c] !== undefined) out += KHMER_INDEPENDENT[c];
      else if (c >= '\u17E0' && c <= '\u17E9') out += String(c.charCodeAt(0) - 0x17e0);
      else if (!isKhmerMark(c)) out += c === '។' || c === '៕' ? ' ' : c;
      i++;
      continue;
    }
    let onset = cons[0];
    let series = cons[1];
    i++;
    // Subscript consonants (coeng + consonant) join the onset.
    while (s[i] === KHMER_COENG && KHMER_CONSONANT[s[i + 1] ?? '']) {
      onset += KHMER_CONSONANT[s[i + 1]!]![0];
      i += 2;
    }
    let vowel: string | undefined;
    let nasal = '';
    let coda = '';
    while (isKhmerMark(s[i])) {
      const m = s[i]!;
      if (m === KHMER_TO_FIRST) {
        series = 1;
        if (c === 'ប') onset = 'p' + onset.slice(1);
      } else if (m === KHMER_TO_SECOND) series = 2;
      else if (KHMER_VOWEL[m]) vowel = KHMER_VOWEL[m]![series - 1];
      else if (m === 'ំ') nasal = 'm';
      else if (m === 'ះ') coda = 'h';
      else if (m === 'ៈ') vowel = vowel ?? 'a';
      i++;
    }
    let syllable = onset + (vowel ?? (series === 1 ? 'a' : 'o')) + nasal + coda;
    // A following consonant with no vowel sign and no subscript of its own closes this syllable (two
    // bare consonants: the first is an onset with its inherent vowel, the second the final, ពត "pot").
    const next = s[i];
    if (next && KHMER_CONSONANT[next] && !nasal && !coda && s[i + 1] !== KHMER_COENG && (!isKhmerMark(s[i + 1]) || s[i + 1] === '\u17CB')) {
      // The bantoc (់) over a final shortens an inherent vowel: o-series "u" (គន់ "kun"), a-series "a".
      if (s[i + 1] === '\u17CB' && vowel === undefined) syllable = onset + (series === 1 ? 'a' : 'u');
      syllable += KHMER_FINAL[next] ?? KHMER_CONSONANT[next]![0];
      i += s[i + 1] === '\u17CB' ? 2 : 1;
    }
    out += syllable;
  }
  return out;
}

// ---- Burmese --------------------------------------------------------------------------------------
const BURMESE_RE = /[\u1000-\u109F]/;
export function hasBurmese(s: string): boolean {
  return BURMESE_RE.test(s);
}
// Consonants in the spellings Burmese names take in Latin (ဆ "s" as in San, ထ "ht" as in Htay).
const BURMESE_CONSONANT: Record<string, string> = {
  က: 'k',
  ခ: 'kh',
  ဂ: 'g',
  ဃ: 'g',
  င: 'ng',
  စ: 's',
  ဆ: 's',
  ဇ: 'z',
  ဈ: 'z',
  ဉ: 'ny',
  ည: 'ny',
  ဋ: 't',
  ဌ: 'ht',
  ဍ: 'd',
  ဎ: 'd',
  ဏ: 'n',
  တ: 't',
  ထ: 'ht',
  ဒ: 'd',
  ဓ: 'd',
  န: 'n',
  ပ: 'p',
  ဖ: 'ph',
  ဗ: 'b',
  ဘ: 'b',
  မ: 'm',
  ယ: 'y',
  ရ: 'y',
  လ: 'l',
  ဝ: 'w',
  သ: 'th',
  ဟ: 'h',
  ဠ: 'l',
  အ: '',
};
const BURMESE_INDEPENDENT: Record<string, string> = { ဣ: 'i', ဤ: 'i', ဥ: 'u', ဦ: 'u', ဧ: 'e', ဩ: 'aw', ဪ: 'aw' };
const ASAT = '\u103A';
const STACK = '\u1039';

/** Rhyme from the vowel signs and the final consonant (k, ng, t, n, m, ny…). */
function burmeseRhyme(v: string, final: string, w: boolean): string {
  const stop = final === 'k' || final === 't' || final === 'p' || final === 's';
  const nas = final === 'n' || final === 'm' || final === 'ng' || final === 'nasal';
  if (v === 'aw' && (final === 'k' || final === 'ng')) return final === 'k' ? 'auk' : 'aung';
  if (v === 'o' && (final === 'k' || final === 'ng')) return final === 'k' ? 'aik' : 'aing';
  if (v === 'i' && (stop || nas)) return stop ? 'eik' : 'ein';
  if (v === 'u' && (stop || nas)) return stop ? 'ok' : 'on';
  if (w && !v && (stop || nas)) return stop ? 'ut' : 'un';
  if (!v) {
    if (final === 'k') return 'et';
    if (final === 'ng') return 'in';
    if (final === 's') return 'it';
    if (final === 'ny') return 'i';
    if (final === 'y') return 'e';
    if (stop) return 'at';
    if (nas) return 'an';
    return w ? 'wa' : 'a';
  }
  return v;
}

/** Romanises Burmese letters, one Latin word per syllable (as Burmese names are written); other characters pass through. */
export function burmeseToLatin(input: string): string {
  const s = [...input];
  let out = '';
  let i = 0;
  const sep = (): void => {
    if (out && !out.endsWith(' ')) out += ' ';
  };
  while (i < s.length) {
    const c = s[i]!;
    const cons = BURMESE_CONSONANT[c];
    if (cons === undefined) {
      if (BURMESE_INDEPENDENT[c] !== undefined) {
        sep();
        out += BURMESE_INDEPENDENT[c];
      } else if (c >= '\u1040' && c <= '\u1049') out += String(c.charCodeAt(0) - 0x1040);
      else if (!(c >= '\u102B' && c <= '\u103E')) out += c === '၊' || c === '။' ? ' ' : c;
      i++;
      continue;
    }
    i++;
    let onset = cons;
    let w = false;
    let h = false;
    let v = '';
    let e = false,
      a = false,
      iv = false,
      u = false,
      nasal = false;
    for (; i < s.length; i++) {
      const m = s[i]!;
      if (m === '\u103B' || m === '\u103C') onset += onset.endsWith('y') ? '' : 'y';
      else if (m === '\u103D') w = true;
      else if (m === '\u103E') h = true;
      else if (m === '\u102B' || m === '\u102C') a = true;
      else if (m === '\u102D' || m === '\u102E') iv = true;
      else if (m === '\u102F' || m === '\u1030') u = true;
      else if (m === '\u1031') e = true;
      else if (m === '\u1032') v = 'e';
      else if (m === '\u1036') nasal = true;
      else if (m === '\u1037' || m === '\u1038') continue;
      else break;
    }
    if (e && a) v = 'aw';
    else if (iv && u) v = 'o';
    else if (e) v = 'e';
    else if (a) v = 'a';
    else if (iv) v = 'i';
    else if (u) v = 'u';
    // A final consonant: consonant + asat, or stacked under the next one.
    let final = nasal ? 'nasal' : '';
    const f = s[i];
    // The creaky-tone dot may sit between the final and its asat (မြင့် "myint").
    const k = s[i + 1] === '\u1037' ? i + 2 : i + 1;
    if (f && BURMESE_CONSONANT[f] !== undefined && (s[k] === ASAT || s[k] === STACK)) {
      const fc = BURMESE_CONSONANT[f]!;
      final = fc === 'ny' ? 'ny' : fc === 'y' ? 'y' : fc === 'ng' ? 'ng' : fc === 's' ? 's' : fc.slice(-1);
      i = k + 1;
      while (s[i] === '\u1037' || s[i] === '\u1038') i++;
    }
    if (h && onset) onset = 'h' + onset;
    // Medial w with a final and no vowel sign makes the rhyme (ut, un); otherwise it is part of the onset.
    const wRhyme = w && !!final && !v;
    if (w && !wRhyme) onset += 'w';
    sep();
    out += onset + burmeseRhyme(v, final, wRhyme);
  }
  return out.replace(/ +/g, ' ');
}
