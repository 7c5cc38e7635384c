// Devanagari (Hindi, Marathi, Nepali) to Latin in the Hunterian spelling Indian passports and
// sanctions lists use: no diacritics, long and short vowels alike (ī → i), retroflex and dental
// alike (ड, द → d), श/ष → sh. Devanagari is an abugida: a consonant carries an inherent "a" unless
// a vowel sign or the virama (्) replaces it; Hindi drops that "a" at the end of a word unless the
// word ends in a consonant cluster (राम → ram, नरेन्द्र → narendra). Inner schwa deletion (कमला,
// "kamla" or "kamala") is left alone: Latin spellings vary there too.

const CONSONANT: Record<string, string> = {
  क: 'k',
  ख: 'kh',
  ग: 'g',
  घ: 'gh',
  ङ: 'n',
  च: 'ch',
  छ: 'chh',
  ज: 'j',
  झ: 'jh',
  ञ: 'n',
  ट: 't',
  ठ: 'th',
  ड: 'd',
  ढ: 'dh',
  ण: 'n',
  त: 't',
  थ: 'th',
  द: 'd',
  ध: 'dh',
  न: 'n',
  ऩ: 'n',
  प: 'p',
  फ: 'ph',
  ब: 'b',
  भ: 'bh',
  म: 'm',
  य: 'y',
  र: 'r',
  ऱ: 'r',
  ल: 'l',
  ळ: 'l',
  ऴ: 'l',
  व: 'v',
  श: 'sh',
  ष: 'sh',
  स: 's',
  ह: 'h',
};
// A consonant with the nukta (़) is a Perso-Arabic or flapped sound.
const NUKTA: Record<string, string> = { क: 'q', ख: 'kh', ग: 'gh', ज: 'z', झ: 'zh', ड: 'r', ढ: 'rh', फ: 'f', य: 'y' };
const VOWEL: Record<string, string> = {
  ॐ: 'om',
  ऄ: 'a',
  ॲ: 'e',
  अ: 'a',
  आ: 'a',
  इ: 'i',
  ई: 'i',
  उ: 'u',
  ऊ: 'u',
  ऋ: 'ri',
  ॠ: 'ri',
  ऌ: 'li',
  ए: 'e',
  ऐ: 'ai',
  ओ: 'o',
  औ: 'au',
  ऍ: 'e',
  ऑ: 'o',
  ऎ: 'e',
  ऒ: 'o',
};
const SIGN: Record<string, string> = {
  'ा': 'a',
  'ि': 'i',
  'ी': 'i',
  'ु': 'u',
  'ू': 'u',
  'ृ': 'ri',
  'ॄ': 'ri',
  'े': 'e',
  'ै': 'ai',
  'ो': 'o',
  'ौ': 'au',
  'ॅ': 'e',
  'ॉ': 'o',
  'ॆ': 'e',
  'ॊ': 'o',
};
const VIRAMA = '्';
const NUKTA_SIGN = '़';
const DIGITS = '०१२३४५६७८९';

const DEVANAGARI_RE = /[\u0900-\u097F]/;
export function hasDevanagari(s: string): boolean {
  return DEVANAGARI_RE.test(s);
}

/** Romanises the Devanagari letters of `input`; other characters pass through. */
export function devanagariToLatin(input: string): string {
  // Nukta letters (क़) are decomposed to consonant + nukta; nothing outside Devanagari is touched.
  const s = [...input.replace(/[\u0900-\u097F]+/g, (m) => m.normalize('NFD'))];
  let out = '';
  // The inherent vowel of the last consonant is written only once we know what follows it.
  let pending = false; // a consonant was written whose inherent "a" is not yet decided
  let cluster = false; // that consonant closes a cluster joined by the virama
  const flush = (wordEnd: boolean): void => {
    if (pending && (!wordEnd || cluster)) out += 'a';
    pending = false;
    cluster = false;
  };
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (CONSONANT[ch] !== undefined) {
      const joined = pending === false && out.length > 0 && s[i - 1] === VIRAMA;
      flush(false);
      const nukta = s[i + 1] === NUKTA_SIGN;
      out += nukta ? (NUKTA[ch] ?? CONSONANT[ch]) : CONSONANT[ch];
      if (nukta) i++;
      pending = true;
      cluster = joined;
      continue;
    }
    if (ch === VIRAMA) {
      pending = false;
      cluster = false;
      continue;
    }
    if (SIGN[ch] !== undefined) {
      pending = false;
      cluster = false;
      out += SIGN[ch];
      continue;
    }
    if (VOWEL[ch] !== undefined) {
      flush(false);
      out += VOWEL[ch];
      continue;
    }
    if (ch === 'ं' || ch === 'ँ') {
      // Anusvara and chandrabindu nasalise: written n (m before a labial).
      flush(false);
      const next = CONSONANT[s[i + 1] ?? ''] ?? '';
      out += /^[pbm]/.test(next) ? 'm' : 'n';
      continue;
    }
    if (ch === 'ः') {
      flush(false);
      out += 'h';
      continue;
    }
    if (ch === NUKTA_SIGN || ch === '\u093D') continue; // stray nukta, avagraha
    const d = DIGITS.indexOf(ch);
    flush(true);
    out += d >= 0 ? String(d) : ch === '।' || ch === '॥' ? ' ' : ch;
  }
  flush(true);
  return out;
}
