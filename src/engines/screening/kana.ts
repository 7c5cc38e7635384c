// Japanese kana (hiragana and katakana) to Latin, in the Hepburn spelling Japanese passports use:
// shi/chi/tsu/fu/ji, long vowels written short ("Sato", not "Satō" or "Satou"), ん as n, a small っ
// doubling the next consonant (ッチ → tch). Kana are a syllabary, so this is a table, not a guess.
// Kanji (Han characters in Japanese names) need a reading dictionary and are not handled here.

const BASE: Record<string, string> = {
  あ: 'a',
  い: 'i',
  う: 'u',
  え: 'e',
  お: 'o',
  か: 'ka',
  き: 'ki',
  く: 'ku',
  け: 'ke',
  こ: 'ko',
  が: 'ga',
  ぎ: 'gi',
  ぐ: 'gu',
  げ: 'ge',
  ご: 'go',
  さ: 'sa',
  し: 'shi',
  す: 'su',
  せ: 'se',
  そ: 'so',
  ざ: 'za',
  じ: 'ji',
  ず: 'zu',
  ぜ: 'ze',
  ぞ: 'zo',
  た: 'ta',
  ち: 'chi',
  つ: 'tsu',
  て: 'te',
  と: 'to',
  だ: 'da',
  ぢ: 'ji',
  づ: 'zu',
  で: 'de',
  ど: 'do',
  な: 'na',
  に: 'ni',
  ぬ: 'nu',
  ね: 'ne',
  の: 'no',
  は: 'ha',
  ひ: 'hi',
  ふ: 'fu',
  へ: 'he',
  ほ: 'ho',
  ば: 'ba',
  び: 'bi',
  ぶ: 'bu',
  べ: 'be',
  ぼ: 'bo',
  ぱ: 'pa',
  ぴ: 'pi',
  ぷ: 'pu',
  ぺ: 'pe',
  ぽ: 'po',
  ま: 'ma',
  み: 'mi',
  む: 'mu',
  め: 'me',
  も: 'mo',
  や: 'ya',
  ゆ: 'yu',
  よ: 'yo',
  ら: 'ra',
  り: 'ri',
  る: 'ru',
  れ: 're',
  ろ: 'ro',
  わ: 'wa',
  ゐ: 'i',
  ゑ: 'e',
  を: 'o',
  ん: 'n',
  ゔ: 'vu',
  ぁ: 'a',
  ぃ: 'i',
  ぅ: 'u',
  ぇ: 'e',
  ぉ: 'o',
  ゎ: 'wa',
  ゃ: 'ya',
  ゅ: 'yu',
  ょ: 'yo',
  ゕ: 'ka',
  ゖ: 'ke',
};

// A consonant kana followed by small ya/yu/yo (きゃ kya, しゃ sha, ちゃ cha, じゃ ja).
const YOON: Record<string, string> = { ゃ: 'a', ゅ: 'u', ょ: 'o' };
// Katakana spellings of foreign sounds: a kana followed by a small vowel (ファ fa, ティ ti, ヴァ va).
const SMALL_VOWEL: Record<string, string> = { ぁ: 'a', ぃ: 'i', ぅ: 'u', ぇ: 'e', ぉ: 'o' };

function toHiragana(ch: string): string {
  const c = ch.codePointAt(0) ?? 0;
  // Katakana ァ..ヶ sit 0x60 above their hiragana; ヷ-ヺ (va, vi, ve, vo) have none and are handled below.
  return c >= 0x30a1 && c <= 0x30f6 ? String.fromCodePoint(c - 0x60) : ch;
}

const KANA_RE = /[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc\u30fd\u30fe\u31f0-\u31ff]/;
export function hasKana(s: string): boolean {
  return KANA_RE.test(s);
}

/** Romanises the kana in `input`; other characters pass through unchanged. */
export function kanaToLatin(input: string): string {
  const original = [...input.normalize('NFKC')];
  const chars = original.map(toHiragana);
  let out = '';
  let double = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === 'っ') {
      double = true;
      continue;
    }
    // The long-vowel bar and iteration marks: passports write long vowels short.
    if (ch === 'ー' || ch === 'ゝ' || ch === 'ゞ' || ch === 'ヽ' || ch === 'ヾ') continue;
    const v = { ヷ: 'va', ヸ: 'vi', ヹ: 've', ヺ: 'vo' }[ch];
    let syl = v ?? BASE[ch];
    if (syl === undefined) {
      out += ch;
      double = false;
      continue;
    }
    const next = chars[i + 1] ?? '';
    if (YOON[next] && syl.length >= 2 && syl.endsWith('i')) {
      const stem = syl.slice(0, -1);
      syl = (stem === 'sh' || stem === 'ch' || stem === 'j' ? stem : `${stem}y`) + YOON[next];
      i++;
    } else if (SMALL_VOWEL[next] && syl.length >= 2) {
      // テ+ィ → ti, フ+ァ → fa, ウ+ィ → wi, シ+ェ → she.
      const stem = syl === 'u' ? 'w' : syl === 'tsu' ? 'ts' : syl === 'fu' ? 'f' : syl === 'vu' ? 'v' : syl.replace(/[aeiou]+$/, '');
      syl = stem + SMALL_VOWEL[next];
      i++;
    } else if (SMALL_VOWEL[next] && syl === 'u') {
      syl = `w${SMALL_VOWEL[next]}`;
      i++;
    }
    if (double) {
      syl = (syl.startsWith('ch') ? 't' : syl[0]) + syl;
      double = false;
    }
    // In hiragana お段/う段 + う is a long vowel (さとう → Sato, ゆうこ → Yuko) that passports write
    // short. Katakana marks length with ー, so its ウ is a real vowel (オウム → Oumu).
    if (syl === 'u' && original[i] === 'う' && /(?:^|[^aeiou])[ou]$/.test(out)) continue;
    out += syl;
  }
  return out;
}

const KATAKANA_WORD_RE = /^[\u30a1-\u30fa\u30fc]{2,}$/;

/**
 * A second reading of a name in katakana, which Japanese uses for foreign names (ウラジーミル・プーチン
 * "Vladimir Putin"): katakana closes every syllable with a vowel and has no ti or di, so a word-final
 * u after a consonant (ル ru, ス su, ク ku) and o after t or d (ト, ド) go, and チ/ジ are read ti/di as
 * in such transcriptions ("urajimiru puchin" → "uradimir putin"); bu/fu/gu/ku/pu before r are clusters. Undefined when no word is in katakana.
 */
export function katakanaForeignReading(name: string): string | undefined {
  const words = name.split(/[\s・·,、=＝]+/u).filter(Boolean);
  if (!words.some((w) => KATAKANA_WORD_RE.test(w))) return undefined;
  return words
    .map((w) => {
      const latin = kanaToLatin(w);
      if (!KATAKANA_WORD_RE.test(w)) return latin;
      return (
        latin
          .replace(/chi/g, 'ti')
          .replace(/ji/g, 'di')
          .replace(/([bdfgkmprsz])u$/, '$1')
          // A consonant cluster with r (bur, fur, kur: "raburofu" Lavrov) was broken by u.
          .replace(/([bfgkp])u(?=r)/g, '$1')
          .replace(/([td])o$/, '$1')
      );
    })
    .join(' ');
}
