// Script-to-Latin tables. They follow the common passport/BGN conventions because those are the
// spellings sanctions lists use; an exact ISO scheme would produce diacritics the lists never carry.
// Abjads (Arabic, Hebrew) omit short vowels, so their output is flagged and compared by consonant
// skeleton in the name scorer rather than letter by letter.
// Han characters are read in Mandarin pinyin (pinyin-pro's dictionary, MIT, offline), so Chinese names
// match their usual romanisation; a Korean or Japanese name written in Han characters reads "wrong" here
// (金正恩 "jin zhengen") and gets its Korean and Japanese readings as alternatives instead
// (han-readings.ts, through normalize.ts `alts`).
// Japanese kana follow passport Hepburn (kana.ts), Thai the RTGS rules (thai.ts) and Devanagari the
// Hunterian spelling (devanagari.ts).
import { pinyin } from 'pinyin-pro';
import { hasKana, kanaToLatin } from './kana.js';
import { hasThai, thaiToLatin } from './thai.js';
import { devanagariToLatin, hasDevanagari } from './devanagari.js';
import { burmeseToLatin, hasBurmese, hasIndic, hasKhmer, indicToLatin, khmerToLatin } from './brahmic.js';

const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  є: 'ye',
  і: 'i',
  ї: 'yi',
  ґ: 'g',
  ў: 'u',
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'gj',
  ќ: 'kj',
  ѕ: 'dz',
  қ: 'k',
  ғ: 'gh',
  ү: 'u',
  ұ: 'u',
  ң: 'ng',
  ө: 'o',
  һ: 'h',
  ә: 'a',
};

const GREEK: Record<string, string> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};
const GREEK_DIGRAPHS: Array<[RegExp, string]> = [
  // Greek writes a foreign g as γκ and ng as νγκ or γγ (Χλάινγκ "Hlaing"); nt, mb as ντ, μπ.
  [/νγκ/g, 'ng'],
  [/γγ/g, 'ng'],
  [/([αεηιουωϊϋ])γκ/g, '$1ng'],
  [/γκ/g, 'g'],
  [/ου/g, 'ou'],
  [/αυ/g, 'av'],
  [/ευ/g, 'ev'],
  [/μπ/g, 'b'],
  [/ντ/g, 'nt'],
];

const ARABIC: Record<string, string> = {
  ا: 'a',
  أ: 'a',
  إ: 'i',
  آ: 'a',
  ٱ: 'a',
  ء: '',
  ؤ: '',
  ئ: '',
  ب: 'b',
  ت: 't',
  ث: 'th',
  ج: 'j',
  ح: 'h',
  خ: 'kh',
  د: 'd',
  ذ: 'dh',
  ر: 'r',
  ز: 'z',
  س: 's',
  ش: 'sh',
  ص: 's',
  ض: 'd',
  ط: 't',
  ظ: 'z',
  ع: '',
  غ: 'gh',
  ف: 'f',
  ق: 'q',
  ك: 'k',
  ل: 'l',
  م: 'm',
  ن: 'n',
  ه: 'h',
  ة: 'a',
  و: 'w',
  ي: 'y',
  ى: 'a',
  پ: 'p',
  چ: 'ch',
  ژ: 'zh',
  گ: 'g',
  ک: 'k',
  ی: 'y',
  ۀ: 'e',
  ـ: '',
};

const HEBREW: Record<string, string> = {
  א: '',
  ב: 'b',
  ג: 'g',
  ד: 'd',
  ה: 'h',
  ו: 'v',
  ז: 'z',
  ח: 'ch',
  ט: 't',
  י: 'y',
  כ: 'k',
  ך: 'k',
  ל: 'l',
  מ: 'm',
  ם: 'm',
  נ: 'n',
  ן: 'n',
  ס: 's',
  ע: '',
  פ: 'p',
  ף: 'f',
  צ: 'ts',
  ץ: 'ts',
  ק: 'k',
  ר: 'r',
  ש: 'sh',
  ת: 't',
};

const GEORGIAN: Record<string, string> = {
  ა: 'a',
  ბ: 'b',
  გ: 'g',
  დ: 'd',
  ე: 'e',
  ვ: 'v',
  ზ: 'z',
  თ: 't',
  ი: 'i',
  კ: 'k',
  ლ: 'l',
  მ: 'm',
  ნ: 'n',
  ო: 'o',
  პ: 'p',
  ჟ: 'zh',
  რ: 'r',
  ს: 's',
  ტ: 't',
  უ: 'u',
  ფ: 'p',
  ქ: 'k',
  ღ: 'gh',
  ყ: 'q',
  შ: 'sh',
  ჩ: 'ch',
  ც: 'ts',
  ძ: 'dz',
  წ: 'ts',
  ჭ: 'ch',
  ხ: 'kh',
  ჯ: 'j',
  ჰ: 'h',
};

const ARMENIAN: Record<string, string> = {
  ա: 'a',
  բ: 'b',
  գ: 'g',
  դ: 'd',
  ե: 'e',
  զ: 'z',
  է: 'e',
  ը: 'y',
  թ: 't',
  ժ: 'zh',
  ի: 'i',
  լ: 'l',
  խ: 'kh',
  ծ: 'ts',
  կ: 'k',
  հ: 'h',
  ձ: 'dz',
  ղ: 'gh',
  ճ: 'ch',
  մ: 'm',
  յ: 'y',
  ն: 'n',
  շ: 'sh',
  ո: 'o',
  չ: 'ch',
  պ: 'p',
  ջ: 'j',
  ռ: 'r',
  ս: 's',
  վ: 'v',
  տ: 't',
  ր: 'r',
  ց: 'ts',
  ւ: 'v',
  փ: 'p',
  ք: 'k',
  օ: 'o',
  ֆ: 'f',
  և: 'ev',
};

// Revised Romanization jamo, used algorithmically over precomposed Hangul syllables.
const HANGUL_INITIAL = ['g', 'kk', 'n', 'd', 'tt', 'r', 'm', 'b', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];
const HANGUL_MEDIAL = [
  'a',
  'ae',
  'ya',
  'yae',
  'eo',
  'e',
  'yeo',
  'ye',
  'o',
  'wa',
  'wae',
  'oe',
  'yo',
  'u',
  'wo',
  'we',
  'wi',
  'yu',
  'eu',
  'ui',
  'i',
];
const HANGUL_FINAL = [
  '',
  'k',
  'k',
  'k',
  'n',
  'n',
  'n',
  't',
  'l',
  'k',
  'm',
  'l',
  'l',
  'l',
  'p',
  'l',
  'm',
  'p',
  'p',
  't',
  't',
  'ng',
  't',
  't',
  'k',
  't',
  'p',
  't',
];
// Korean surnames are romanised by custom, not by RR ("Kim", not "Gim"); the commonest ones cover most people.
const HANGUL_SURNAMES: Record<string, string> = {
  김: 'kim',
  이: 'lee',
  박: 'park',
  최: 'choi',
  정: 'jung',
  강: 'kang',
  조: 'cho',
  윤: 'yoon',
  장: 'jang',
  임: 'lim',
  한: 'han',
  오: 'oh',
  서: 'seo',
  신: 'shin',
  권: 'kwon',
  황: 'hwang',
  안: 'ahn',
  송: 'song',
  류: 'ryu',
  홍: 'hong',
};

const SINGLE = new Map<string, string>();
for (const table of [CYRILLIC, GREEK, ARABIC, HEBREW, GEORGIAN, ARMENIAN]) {
  for (const [k, v] of Object.entries(table)) SINGLE.set(k, v);
}

const ABJAD_RE = /[\u0590-\u05FF\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/;
const NON_LATIN_RE = /[^\u0000-\u024F\u1E00-\u1EFF]/;

export interface Transliteration {
  text: string;
  /** The input contained Arabic or Hebrew letters, whose Latin form lacks the short vowels. */
  abjad: boolean;
}

const HAN_RUN_RE = /\p{Script=Han}+/gu;

/**
 * One run of Han characters in pinyin without tones. A run of 2–4 characters is taken for a personal
 * name and written as Chinese passports do: surname, then the given name joined ("习近平" → "xi jinping";
 * four characters: a two-character surname, "欧阳娜娜" → "ouyang nana"), with the surname reading of
 * characters that read differently as surnames (单 shan, 曾 zeng). Longer runs (organisations) become
 * one word per character; the scorer's joined-form comparison covers spellings that join them.
 */
function hanToLatin(run: string): string {
  const n = [...run].length;
  const syl = pinyin(run, { toneType: 'none', type: 'array', surname: n <= 4 ? 'head' : 'off' }).map((x) => x.replace(/ü/g, 'u'));
  if (n === 2 || n === 3) return `${syl[0]} ${syl.slice(1).join('')}`;
  if (n === 4) return `${syl[0]}${syl[1]} ${syl[2]}${syl[3]}`;
  return syl.join(' ');
}

function hangulSyllable(code: number, first: boolean): string {
  const s = code - 0xac00;
  const ch = String.fromCharCode(code);
  if (first && HANGUL_SURNAMES[ch]) return HANGUL_SURNAMES[ch];
  const initial = HANGUL_INITIAL[Math.floor(s / 588)] ?? '';
  const medial = HANGUL_MEDIAL[Math.floor((s % 588) / 28)] ?? '';
  const final = HANGUL_FINAL[s % 28] ?? '';
  return initial + medial + final;
}

/**
 * Lower-cases and maps Cyrillic, Greek, Arabic, Hebrew, Georgian, Armenian, Hangul, Han (pinyin),
 * kana (Hepburn), Thai (RTGS) and Devanagari (Hunterian) letters to Latin.
 */
export function transliterate(input: string): Transliteration {
  const lower = input.toLowerCase();
  if (!NON_LATIN_RE.test(lower)) return { text: lower, abjad: false };
  let s = lower;
  // Syllabic and logographic scripts first, each run set apart by spaces from letters of another script.
  if (hasKana(s)) s = kanaToLatin(s);
  if (HAN_RUN_RE.test(s)) s = s.replace(HAN_RUN_RE, (run) => ` ${hanToLatin(run)} `);
  if (hasThai(s)) s = thaiToLatin(s);
  if (hasDevanagari(s)) s = devanagariToLatin(s);
  if (hasIndic(s)) s = indicToLatin(s);
  if (hasKhmer(s)) s = khmerToLatin(s);
  if (hasBurmese(s)) s = burmeseToLatin(s);
  // Greek accents are combining marks after NFD; drop them so the base letter hits the table, and before
  // the digraphs, which an accent on their second letter would hide (Πούτιν: ού is ou, not oy).
  // Only Greek: decomposing Cyrillic would turn й into и and lose the letter.
  s = s.replace(/[\u0370-\u03FF\u1F00-\u1FFF]/g, (c) => c.normalize('NFD').replace(/[\u0300-\u036f]/g, ''));
  for (const [re, rep] of GREEK_DIGRAPHS) s = s.replace(re, rep);
  // Ukrainian spells и as y and г as h; its own letters (і ї є ґ) tell the language apart from Russian.
  if (/[іїєґ]/.test(s)) s = s.replace(/[иг]/g, (c) => (c === 'и' ? 'y' : 'h'));
  const abjad = ABJAD_RE.test(s);
  // The Arabic article is written joined ("التكريتي"); Latin spellings separate it ("al-Tikriti").
  // Three letters must follow so that "الله" (Allah) stays whole.
  if (abjad) s = s.replace(/(^|\s)[اٱ]ل(?=[\u0621-\u064A\u067E-\u06D3]{3,})/g, '$1al ');
  let out = '';
  let prevHangul = false;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xac00 && code <= 0xd7a3) {
      // Each Hangul syllable becomes its own token: Korean given names are romanised split or joined
      // ("Ji Sung", "Jisung"), and the scorer's compact comparison covers the joined form.
      out += (prevHangul ? ' ' : '') + hangulSyllable(code, !prevHangul);
      prevHangul = true;
      continue;
    }
    prevHangul = false;
    const mapped = SINGLE.get(ch);
    out += mapped ?? ch;
  }
  return { text: out, abjad };
}

/**
 * A second reading of a hangul name that transcribes a foreign one (블라디미르 푸틴 "Vladimir Putin").
 * Korean breaks foreign consonant clusters and final consonants with the vowel ㅡ (eu): 블 "beul" is
 * "bl", 르 "reu" a final "r". This reading drops that vowel, joins each word's syllables and writes
 * ㄹ + ㄹ once (블라 "bla"), so the name meets its Latin spelling. Only names with a ㅡ syllable get
 * it, the mark of a transcription (Korean given names rarely have one; 은 "eun" does, harmlessly: the
 * scorer takes the better reading).
 */
export function hangulForeignReading(name: string): string | undefined {
  if (!/[\uac00-\ud7a3]/.test(name)) return undefined;
  let any = false;
  const words = name.split(/[\s·・,]+/u).map((word) => {
    let out = '';
    let prevFinal = '';
    for (const ch of word) {
      const code = ch.codePointAt(0) ?? 0;
      if (code < 0xac00 || code > 0xd7a3) {
        out += ch;
        prevFinal = '';
        continue;
      }
      const s = code - 0xac00;
      let initial = HANGUL_INITIAL[Math.floor(s / 588)] ?? '';
      let medial = HANGUL_MEDIAL[Math.floor((s % 588) / 28)] ?? '';
      const final = HANGUL_FINAL[s % 28] ?? '';
      if (medial === 'eu') {
        any = true;
        medial = '';
      }
      if (prevFinal === 'l' && initial === 'r') initial = '';
      out += initial + medial + final;
      prevFinal = final;
    }
    return out;
  });
  return any ? words.filter(Boolean).join(' ') : undefined;
}
