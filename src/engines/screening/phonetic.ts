// A compact Double-Metaphone-style key: it folds the spelling variants that transliteration produces
// (kh/h, ph/f, ck/k, c/k/s, x/ks, z/s, w/v, dj/j, ou/u, doubled letters) and drops inner vowels.
// It is used to retrieve candidates and as a tie-breaker in token similarity, never as proof alone.

const RULES: Array<[RegExp, string]> = [
  [/^x/, 's'],
  [/sch/g, 'x'],
  [/tch/g, 'x'],
  [/sh/g, 'x'],
  [/ch/g, 'x'],
  [/zh/g, 'j'],
  [/dzh/g, 'j'],
  [/dj/g, 'j'],
  [/ph/g, 'f'],
  [/th/g, 't'],
  [/kh/g, 'h'],
  [/gh/g, 'g'],
  [/ck/g, 'k'],
  [/q/g, 'k'],
  [/c(?=[eiy])/g, 's'],
  [/c/g, 'k'],
  [/x/g, 'ks'],
  [/z/g, 's'],
  [/w/g, 'v'],
  [/ts/g, 's'],
  [/dz/g, 'j'],
  [/ou/g, 'u'],
  [/ck/g, 'k'],
  [/g(?=[eiy])/g, 'j'],
  [/y/g, 'i'],
];

function applyRules(token: string): string {
  let s = token;
  for (const [re, rep] of RULES) s = s.replace(re, rep);
  return s;
}

/**
 * The token spelled with the key's letter equivalences (kh/h, ph/f, c/k, x/ks, z/s, w/v, y/i…), but with
 * its vowels kept: o/u and e/i fold together (transliterations of one Arabic or Russian vowel), a stays
 * apart, Korean eo/eu are o/u, doubled letters and an inner h go. Two words with one phonetic key differ only in what this
 * spelling still shows, so the scorer compares these spellings instead of trusting the key alone
 * ("mohsen"/"muhsin" both "musin"; "warehouse"/"virreyes" stay far apart).
 */
export function phoneticSpelling(token: string): string {
  if (/^[0-9]+$/.test(token)) return token;
  // Korean eo/eu are written o/u in McCune-Reischauer ("jeong"/"jong", "eun"/"un").
  const s = applyRules(token.replace(/e([ou])/g, '$1'))
    .replace(/[ou]/g, 'u')
    .replace(/[ei]/g, 'i');
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === 'h' && i > 0) continue;
    if (ch === out[out.length - 1]) continue;
    out += ch;
  }
  return out;
}

/** Phonetic key of one normalised token (a–z and digits), at most 6 characters. */
export function phoneticKey(token: string): string {
  if (token.length === 0) return '';
  if (/^[0-9]+$/.test(token)) return token;
  const s = applyRules(token);
  const first = s[0] ?? '';
  const firstIsVowel = 'aeiou'.includes(first);
  let out = firstIsVowel ? 'a' : first;
  let prev = out;
  for (let i = 1; i < s.length; i++) {
    const ch = s[i] ?? '';
    if ('aeiouh'.includes(ch)) {
      prev = ch === 'h' ? prev : ch;
      continue;
    }
    if (ch === prev) continue;
    out += ch;
    prev = ch;
    if (out.length >= 6) break;
  }
  return out;
}

/**
 * Consonant skeleton for comparing abjad transliterations ("mhmd", "hsyn") with vocalised spellings
 * ("mohamed", "hussein"): vowels go, y/w go except word-initially (in Arabic they are mostly long
 * vowels), and letters Latin spellings use interchangeably for one Arabic or Hebrew letter are merged.
 */
export function consonantSkeleton(token: string): string {
  const s = token.replace(/dj/g, 'j').replace(/ph/g, 'f').replace(/ck/g, 'k');
  let out = '';
  let prev = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if ("aeiou'".includes(ch)) continue;
    if ((ch === 'y' || ch === 'w') && i > 0) continue;
    const c = ch === 'q' || ch === 'g' ? 'k' : ch === 'v' || ch === 'p' ? 'b' : ch === 'z' ? 's' : ch;
    if (c === prev) continue;
    out += c;
    prev = c;
  }
  return out;
}
