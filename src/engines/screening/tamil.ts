// Tamil names to Latin. Tamil script has one letter for each pair of voiceless and voiced stops (க k/g,
// ச c/j/s, ட ṭ/ḍ, த t/d, ப p/b): native words voice them by position, while a foreign name written in
// Tamil voices them as the source language did (தாவூத் is Dawood, its த a d even at the start of the
// word), and breaks foreign clusters with a vowel (விளாதிமிர் Vladimir). So a Tamil name is read twice:
// letter by letter in ISO 15919 without diacritics (the primary reading, brahmic.ts through Devanagari's
// layout), and as a sequence of syllables each with the Latin spellings it may stand for (voiced or
// voiceless, with or without the breaking vowel), compared with Latin words by transcription.ts.
import type { TranscriptionUnit } from './transcription.js';

const TAMIL_RE = /[\u0B80-\u0BFF]/;
const TAMIL_WORD_RE = /^[\u0B80-\u0BFF]+$/;
const PULLI = '\u0BCD';
const AYTHAM = '\u0B83';

type Options = Array<[string, number]>;

// ISO 15919 letters and the Latin spellings of names they stand for (the first is ISO's, folded).
const CONSONANT: Record<string, Options> = {
  க: [
    ['k', 0],
    ['g', 0],
    ['kh', 0],
    ['gh', 0],
    ['h', 0.2],
    ['c', 0.1],
    ['q', 0.2],
  ],
  ங: [
    ['ng', 0],
    ['n', 0],
  ],
  ச: [
    ['c', 0],
    ['ch', 0],
    ['s', 0],
    ['j', 0],
    ['sh', 0.2],
    ['z', 0.2],
    ['tch', 0],
  ],
  ஜ: [
    ['j', 0],
    ['z', 0.1],
    ['dj', 0],
    ['g', 0.2],
  ],
  ஞ: [
    ['ny', 0],
    ['n', 0],
    ['nj', 0],
  ],
  ட: [
    ['t', 0],
    ['d', 0],
    ['th', 0.1],
    ['dh', 0.1],
  ],
  ண: [['n', 0]],
  த: [
    ['t', 0],
    ['d', 0],
    ['th', 0],
    ['dh', 0],
  ],
  ந: [['n', 0]],
  ன: [['n', 0]],
  ப: [
    ['p', 0],
    ['b', 0],
    ['ph', 0],
    ['bh', 0],
    ['f', 0.3],
    ['v', 0.3],
  ],
  ம: [['m', 0]],
  ய: [
    ['y', 0],
    ['', 0.2],
    ['i', 0.2],
    ['j', 0.3],
  ],
  ர: [['r', 0]],
  ற: [
    ['r', 0],
    ['t', 0.3],
    ['d', 0.3],
    ['rr', 0],
  ],
  ல: [
    ['l', 0],
    ['r', 0.3],
  ],
  ள: [
    ['l', 0],
    ['r', 0.3],
  ],
  ழ: [
    ['zh', 0],
    ['l', 0],
    ['r', 0.3],
    ['z', 0.3],
  ],
  வ: [
    ['v', 0],
    ['w', 0],
    ['b', 0.3],
    ['u', 0.3],
  ],
  ஶ: [
    ['sh', 0],
    ['s', 0.2],
  ],
  ஷ: [
    ['sh', 0],
    ['s', 0.2],
  ],
  ஸ: [
    ['s', 0],
    ['z', 0.2],
  ],
  ஹ: [
    ['h', 0],
    ['kh', 0.2],
    ['', 0.3],
  ],
};
// ஃ before a letter makes a sound Tamil lacks: ஃப f, ஃஜ z.
const AYTHAM_CONSONANT: Record<string, Options> = {
  ப: [
    ['f', 0],
    ['ph', 0],
  ],
  ஜ: [['z', 0]],
  க: [
    ['kh', 0],
    ['h', 0],
  ],
};

// Vowel signs (and the inherent a) and independent vowels.
const VOWEL_SIGN: Record<string, Options> = {
  '': [
    ['a', 0],
    ['e', 0.3],
    ['u', 0.3],
    ['o', 0.3],
  ],
  'ா': [
    ['a', 0],
    ['aa', 0],
  ],
  // A short i or u may be a vowel Tamil adds to break a foreign cluster (விளா for vla) or to end a word.
  'ி': [
    ['i', 0],
    ['e', 0.2],
    ['y', 0],
    ['', 0.4],
  ],
  'ீ': [
    ['i', 0],
    ['ee', 0],
    ['ea', 0],
    ['e', 0.2],
  ],
  'ு': [
    ['u', 0],
    ['o', 0.2],
    ['oo', 0],
    ['', 0.4],
  ],
  'ூ': [
    ['u', 0],
    ['oo', 0],
    ['ou', 0],
    ['o', 0.2],
    ['ow', 0.1],
  ],
  'ெ': [
    ['e', 0],
    ['a', 0.3],
    ['i', 0.2],
  ],
  'ே': [
    ['e', 0],
    ['ai', 0],
    ['ay', 0],
    ['ei', 0],
  ],
  'ை': [
    ['ai', 0],
    ['ei', 0],
    ['ay', 0],
    ['e', 0.2],
    ['y', 0.2],
  ],
  'ொ': [
    ['o', 0],
    ['a', 0.3],
  ],
  'ோ': [
    ['o', 0],
    ['ou', 0],
    ['au', 0.2],
    ['ow', 0],
  ],
  'ௌ': [
    ['au', 0],
    ['ow', 0],
    ['ou', 0],
  ],
};
const INDEPENDENT: Record<string, Options> = {
  அ: [
    ['a', 0],
    ['e', 0.3],
  ],
  ஆ: [
    ['a', 0],
    ['aa', 0],
  ],
  இ: [
    ['i', 0],
    ['e', 0.2],
    ['y', 0.2],
  ],
  ஈ: [
    ['i', 0],
    ['ee', 0],
    ['e', 0.2],
  ],
  உ: [
    ['u', 0],
    ['o', 0.2],
  ],
  ஊ: [
    ['u', 0],
    ['oo', 0],
    ['ou', 0],
  ],
  எ: [
    ['e', 0],
    ['ye', 0.2],
    ['a', 0.3],
  ],
  ஏ: [
    ['e', 0],
    ['ye', 0.2],
    ['ai', 0],
  ],
  ஐ: [
    ['ai', 0],
    ['ei', 0],
    ['ay', 0],
  ],
  ஒ: [['o', 0]],
  ஓ: [
    ['o', 0],
    ['ou', 0],
  ],
  ஔ: [
    ['au', 0],
    ['ow', 0],
  ],
};

export function hasTamil(s: string): boolean {
  return TAMIL_RE.test(s);
}

/** One Tamil word as syllables (consonant + vowel sign, consonant + pulli, or vowel), each with its Latin spellings. */
export function tamilUnits(word: string): TranscriptionUnit[] | undefined {
  const s = [...word];
  const units: TranscriptionUnit[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (INDEPENDENT[c]) {
      units.push([INDEPENDENT[c]!]);
      i++;
      continue;
    }
    let cons = CONSONANT[c];
    if (c === AYTHAM) {
      const next = s[i + 1] ?? '';
      if (!AYTHAM_CONSONANT[next]) {
        i++;
        continue;
      }
      cons = AYTHAM_CONSONANT[next];
      i++;
    }
    if (!cons) return undefined;
    i++;
    const mark = s[i];
    if (mark === PULLI) {
      i++;
      // A doubled consonant (ட்ட) is one consonant in a foreign name, written double to keep it voiceless.
      const doubled = s[i] === c;
      units.push([doubled ? [...cons, ['', 0]] : cons]);
      continue;
    }
    if (mark === '\u0BD7') i++;
    const vowel = mark !== undefined ? VOWEL_SIGN[mark] : undefined;
    if (vowel) i++;
    units.push([cons, vowel ?? VOWEL_SIGN['']!]);
  }
  return units.length ? units : undefined;
}

/** The Tamil words of a name as syllable units; undefined when a word is not all Tamil. */
export function tamilTranscription(words: readonly string[]): TranscriptionUnit[][] | undefined {
  if (!words.some((w) => TAMIL_RE.test(w))) return undefined;
  const out: TranscriptionUnit[][] = [];
  for (const w of words) {
    if (!TAMIL_WORD_RE.test(w)) return undefined;
    const u = tamilUnits(w);
    if (!u) return undefined;
    out.push(u);
  }
  return out;
}
