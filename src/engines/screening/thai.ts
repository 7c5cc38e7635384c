// Thai to Latin following the Royal Thai General System (RTGS), the official romanisation and the one
// Thai passports and sanctions lists mostly use. Thai writes no spaces between syllables, puts some
// vowels before the consonant they follow in speech and leaves short vowels implicit, so this is a
// rule-based syllable reader, not a letter table:
//   [leading vowel] initial [cluster r/l/w] [vowel signs] [final consonant]
// A consonant is read as a final when the next one is not followed by a vowel sign; a syllable with
// no written vowel takes "o" before a final and "a" otherwise (สมชาย → som-chai). Tone marks are not
// written in RTGS; a consonant under the silencer ์ is dropped. Limits: no dictionary, so words whose
// syllable boundaries or silent letters are irregular (loanwords such as จันทร์) come out approximate.

const INITIAL: Record<string, string> = {
  ก: 'k',
  ข: 'kh',
  ฃ: 'kh',
  ค: 'kh',
  ฅ: 'kh',
  ฆ: 'kh',
  ง: 'ng',
  จ: 'ch',
  ฉ: 'ch',
  ช: 'ch',
  ซ: 's',
  ฌ: 'ch',
  ญ: 'y',
  ฎ: 'd',
  ฏ: 't',
  ฐ: 'th',
  ฑ: 'th',
  ฒ: 'th',
  ณ: 'n',
  ด: 'd',
  ต: 't',
  ถ: 'th',
  ท: 'th',
  ธ: 'th',
  น: 'n',
  บ: 'b',
  ป: 'p',
  ผ: 'ph',
  ฝ: 'f',
  พ: 'ph',
  ฟ: 'f',
  ภ: 'ph',
  ม: 'm',
  ย: 'y',
  ร: 'r',
  ล: 'l',
  ว: 'w',
  ศ: 's',
  ษ: 's',
  ส: 's',
  ห: 'h',
  ฬ: 'l',
  อ: '',
  ฮ: 'h',
};
const FINAL: Record<string, string> = {
  ก: 'k',
  ข: 'k',
  ฃ: 'k',
  ค: 'k',
  ฅ: 'k',
  ฆ: 'k',
  ง: 'ng',
  จ: 't',
  ฉ: 't',
  ช: 't',
  ซ: 't',
  ฌ: 't',
  ญ: 'n',
  ฎ: 't',
  ฏ: 't',
  ฐ: 't',
  ฑ: 't',
  ฒ: 't',
  ณ: 'n',
  ด: 't',
  ต: 't',
  ถ: 't',
  ท: 't',
  ธ: 't',
  น: 'n',
  บ: 'p',
  ป: 'p',
  ผ: 'p',
  ฝ: 'p',
  พ: 'p',
  ฟ: 'p',
  ภ: 'p',
  ม: 'm',
  ย: 'i',
  ร: 'n',
  ล: 'n',
  ว: 'o',
  ศ: 't',
  ษ: 't',
  ส: 't',
  ห: '',
  ฬ: 'n',
  อ: '',
  ฮ: '',
};
const LEADING = new Set(['เ', 'แ', 'โ', 'ใ', 'ไ']);
// Signs written after (or above/below) the initial; any of them after a consonant makes it an initial.
const FOLLOWING = new Set(['ะ', 'ั', 'า', 'ำ', 'ิ', 'ี', 'ึ', 'ื', 'ุ', 'ู', '็', 'ๅ']);
const TONE = /[\u0E48-\u0E4B]/g;
const isConsonant = (c: string | undefined): boolean => c !== undefined && c >= 'ก' && c <= 'ฮ';

const THAI_RE = /[\u0E01-\u0E5B]/;
export function hasThai(s: string): boolean {
  return THAI_RE.test(s);
}

/** Romanises the Thai letters of `input` (RTGS, without tone); other characters pass through. */
export function thaiToLatin(input: string): string {
  // Tone marks change nothing in RTGS; a consonant carrying the silencer (์) is not pronounced.
  // The silenced consonant leaves a mark (§) so that a bare consonant just before it can be read as silent too.
  const s = [...input.replace(TONE, '').replace(/[ก-ฮ][ิุ]?์/g, '§')];
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (!isConsonant(c) && !LEADING.has(c)) {
      if (c === '§') {
        /* silent */
      } else if (c === 'ฤ') out += 'rue';
      else if (c === 'ๆ') {
        /* repetition mark: the word is said twice; the name is the same */
      } else if (c >= '๐' && c <= '๙') out += String(c.charCodeAt(0) - 0x0e50);
      else if (/[\u0E00-\u0E7F]/.test(c))
        out += ' '; // other signs (๏ ฯ ๚ ๛, unassigned) separate words
      else if (FOLLOWING.has(c))
        out += c === 'ำ' ? 'am' : c === 'ุ' || c === 'ู' ? 'u' : c === 'ิ' || c === 'ี' ? 'i' : c === 'ึ' || c === 'ื' ? 'ue' : 'a';
      else out += c;
      i++;
      continue;
    }
    const lead = LEADING.has(c) ? c : '';
    if (lead) i++;
    if (!isConsonant(s[i])) {
      out += lead === 'แ' ? 'ae' : lead === 'โ' ? 'o' : lead === 'ใ' || lead === 'ไ' ? 'ai' : 'e';
      continue;
    }
    // Initial consonant, with a silent ห/อ before a sonorant (หม, หน, หล, หว, อย) and r/l/w clusters.
    let ini = INITIAL[s[i]!]!;
    if ((s[i] === 'ห' && 'งญนมยรลว'.includes(s[i + 1] ?? 'x')) || (s[i] === 'อ' && s[i + 1] === 'ย')) {
      i++;
      ini = INITIAL[s[i]!]!;
    }
    i++;
    const clusterable = 'กขคตปผพ'.includes(s[i - 1]!);
    if (
      clusterable &&
      (s[i] === 'ร' || s[i] === 'ล' || s[i] === 'ว') &&
      (FOLLOWING.has(s[i + 1] ?? '') || (lead && isConsonant(s[i + 1])))
    ) {
      ini += INITIAL[s[i]!]!;
      i++;
    }
    // Vowel signs after the initial.
    let signs = '';
    while (i < s.length && FOLLOWING.has(s[i]!)) signs += s[i++]!;
    let vowel = '';
    let open = false; // the vowel closes the syllable (no final consonant follows)
    const nx = s[i];
    if (lead === 'เ' && signs === 'ี' && nx === 'ย') {
      vowel = 'ia';
      i++;
    } else if (lead === 'เ' && signs === 'ื' && nx === 'อ') {
      vowel = 'uea';
      i++;
    } else if (lead === 'เ' && signs === '' && nx === 'อ') {
      vowel = 'oe';
      i++;
    } else if (lead === 'เ' && signs === 'า') {
      vowel = 'ao';
      open = true;
    } else if (lead === 'เ' && signs.includes('ะ')) {
      vowel = 'e';
      open = true;
    } else if (lead === 'เ') vowel = 'e';
    else if (lead === 'แ') {
      vowel = 'ae';
      open = signs.includes('ะ');
    } else if (lead === 'โ') {
      vowel = 'o';
      open = signs.includes('ะ');
    } else if (lead === 'ใ' || lead === 'ไ') {
      vowel = 'ai';
      open = true;
    } else if (signs === 'ั' && nx === 'ว') {
      vowel = 'ua';
      i++;
    } else if (signs === 'ำ') {
      vowel = 'am';
      open = true;
    } else if (signs === '' && nx === 'ว' && isConsonant(s[i + 1]) && !FOLLOWING.has(s[i + 2] ?? '')) {
      vowel = 'ua';
      i++;
    } else if (signs === '' && nx === 'อ' && !FOLLOWING.has(s[i + 1] ?? '')) {
      vowel = 'o';
      i++;
    } else if (signs)
      vowel = signs.includes('า')
        ? 'a'
        : signs.includes('ิ') || signs.includes('ี')
          ? 'i'
          : signs.includes('ึ') || signs.includes('ื')
            ? 'ue'
            : signs.includes('ุ') || signs.includes('ู')
              ? 'u'
              : signs.includes('็') && lead === ''
                ? 'o'
                : 'a';
    if (signs.includes('ะ') && !lead) open = true;
    // A final consonant: the next consonant, unless a vowel sign (or a cluster) shows it starts the next syllable.
    let fin = '';
    const f = s[i];
    const after = s[i + 1] ?? '',
      after2 = s[i + 2] ?? '';
    // ั always closes its syllable. Otherwise a consonant that could close the syllable is left to the
    // next one when that one would have no vowel and end the word (ภูมิพล phu-mi-phon, not phu-mip-la).
    const nextBare = isConsonant(after) && !isConsonant(after2) && !FOLLOWING.has(after2) && !LEADING.has(after2) && after2 !== '§';
    if (
      !open &&
      isConsonant(f) &&
      !FOLLOWING.has(after) &&
      !(after === 'ว' && FOLLOWING.has(after2) && 'กขคตปผพ'.includes(f!)) &&
      (signs.includes('ั') || !nextBare)
    ) {
      fin = FINAL[f!]!;
      i++;
    }
    // A consonant with no vowel of its own that ends a word after a closed syllable is silent
    // (ชินวัตร chinwat, ไทย thai, ลักษณ์ lak).
    const wordEnd = !isConsonant(s[i]) && !LEADING.has(s[i] ?? '') && !FOLLOWING.has(s[i] ?? '');
    if (!vowel && !fin && !lead && wordEnd && /(?:[^aeiou\s]|ai)$/.test(out) && out.length > 0) continue;
    if (!vowel) vowel = fin ? 'o' : 'a';
    // After a vowel, final ย/ว are glides written i/o (ชาย chai, ดาว dao), not consonants.
    if (fin === 'i' && vowel.endsWith('i')) fin = '';
    if (fin === 'o' && vowel === 'o') fin = '';
    out += ini + vowel + fin;
  }
  return out;
}
