// Wade-Giles to pinyin for Chinese personal names ("Mao Tse-tung" → "mao zedong", "Tsai Ing-wen" →
// "cai yingwen"). Older lists, Taiwanese passports and historical names use Wade-Giles; pinyin is what
// Han characters are read as (transliterate.ts) and what most lists use now. The two systems spell the
// same syllables differently, so a typo-tolerant comparison does not bridge them.
//
// A name is read this way only when every syllable of it is a Wade-Giles syllable AND a syllable written
// on its own shows a mark only Wade-Giles has (hs-, ts-/tz-, -ih, -ieh, ss-/sz-, -erh, or an aspiration
// apostrophe): "Chin Ping" or a Korean "Kim Yong-chol" is left alone. The reading is an alternative the
// scorer tries besides the name as written (normalize.ts `alt`), so it can add a match, never lose one.
// Aspiration apostrophes are often dropped in practice; without one the unaspirated reading is taken
// (ping → bing), which stays one letter from the other reading.

const INITIALS = ['ch', 'hs', 'sh', 'ts', 'tz', 'ss', 'sz', 'p', 'm', 'f', 't', 'n', 'l', 'k', 'h', 'j', 's', 'y', 'w', ''];
const FINALS = new Set([
  'a',
  'ai',
  'an',
  'ang',
  'ao',
  'e',
  'eh',
  'ei',
  'en',
  'eng',
  'erh',
  'i',
  'ia',
  'iang',
  'iao',
  'ieh',
  'ien',
  'ih',
  'in',
  'ing',
  'iu',
  'iung',
  'o',
  'ou',
  'u',
  'ua',
  'uai',
  'uan',
  'uang',
  'ui',
  'un',
  'ung',
  'uo',
  'ü',
  'üan',
  'üeh',
  'ün',
  'ueh',
  'uei',
  'ei',
]);
const APOSTROPHE = /['’‘ʻʼ`]/;

function finalToPinyin(initial: string, fin: string): string {
  if (fin === 'ih') return 'i';
  if (fin === 'u' && (initial === 'tz' || initial === 'ss' || initial === 'sz')) return 'i';
  if (fin === 'erh') return 'er';
  if (fin === 'ung') return 'ong';
  if (fin === 'iung') return 'iong';
  if (fin === 'ieh') return 'ie';
  if (fin === 'ueh' || fin === 'üeh') return 'ue';
  if (fin === 'ien') return 'ian';
  if (fin === 'eh') return 'e';
  if (fin === 'o' && (initial === 'k' || initial === 'h')) return 'e';
  if (fin === 'ü' || fin === 'üan' || fin === 'ün') return fin.replace('ü', 'u');
  return fin;
}

/** One syllable in pinyin, or undefined when it is not a Wade-Giles syllable. `marked`: a Wade-Giles-only spelling. */
function syllable(raw: string): { pinyin: string; marked: boolean } | undefined {
  const aspirated = APOSTROPHE.test(raw);
  const s = raw.replace(APOSTROPHE, '');
  for (const ini of INITIALS) {
    if (!s.startsWith(ini)) continue;
    const fin = s.slice(ini.length);
    if (!FINALS.has(fin)) continue;
    if (ini === '' && (fin === 'ih' || fin === 'ü')) continue;
    const front = /^[iü]/.test(fin) && fin !== 'ih';
    let p: string;
    switch (ini) {
      case 'ch':
        p = front ? (aspirated ? 'q' : 'j') : aspirated ? 'ch' : 'zh';
        break;
      case 'hs':
        p = 'x';
        break;
      case 'ts':
      case 'tz':
        p = aspirated ? 'c' : 'z';
        break;
      case 'ss':
      case 'sz':
        p = 's';
        break;
      case 'p':
        p = aspirated ? 'p' : 'b';
        break;
      case 't':
        p = aspirated ? 't' : 'd';
        break;
      case 'k':
        p = aspirated ? 'k' : 'g';
        break;
      case 'j':
        p = 'r';
        break;
      default:
        p = ini;
    }
    let f = finalToPinyin(ini, fin);
    if (ini === '' && /^i/.test(f)) f = f === 'i' ? 'yi' : f === 'in' || f === 'ing' ? `y${f}` : `y${f.slice(1)}`;
    if (ini === 'y' && f === 'u') f = 'ou';
    if (ini === 'y' && f === 'en') f = 'an';
    const marked =
      aspirated ||
      ini === 'hs' ||
      ini === 'ts' ||
      ini === 'tz' ||
      ini === 'ss' ||
      ini === 'sz' ||
      ['ih', 'ieh', 'erh', 'üeh', 'ueh'].includes(fin);
    return { pinyin: p + f, marked };
  }
  return undefined;
}

/**
 * The name in pinyin (syllables of a hyphenated word joined, as pinyin writes given names), or
 * undefined when the name is not recognisably Wade-Giles.
 */
export function wadeGilesToPinyin(name: string): string | undefined {
  const lower = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, (m) => (m === '\u0308' ? '\u0308' : ''))
    .normalize('NFC');
  const words = lower.split(/[\s,]+/).filter(Boolean);
  if (words.length < 2) return undefined;
  let marked = false;
  const out: string[] = [];
  for (const w of words) {
    const parts = w.split(/[-‐‑]/).filter(Boolean);
    if (parts.length === 0 || parts.length > 3) return undefined;
    let joined = '';
    for (const part of parts) {
      if (!/^[a-zü'’‘ʻʼ`]+$/.test(part)) return undefined;
      // The syllables of a given name are also written run together ("Tsetung"). Such a word must not
      // be what marks the name as Wade-Giles: too many other words split into syllables ("Hus-sein").
      const syls = segment(part, 3);
      if (!syls) return undefined;
      if (syls.length === 1) marked ||= syls[0]!.marked;
      for (const syl of syls) joined += syl.pinyin;
    }
    out.push(joined);
  }
  return marked ? out.join(' ') : undefined;
}

/** Splits a word into at most `max` Wade-Giles syllables, longest first syllable first. */
function segment(word: string, max: number): Array<{ pinyin: string; marked: boolean }> | undefined {
  const whole = syllable(word);
  if (whole) return [whole];
  if (max <= 1) return undefined;
  for (let i = Math.min(word.length - 1, 7); i >= 1; i--) {
    const head = syllable(word.slice(0, i));
    // A syllable inside a run-together word starts with a consonant (otherwise Wade-Giles writes a hyphen).
    if (!head || /^[aeiouü]/.test(word.slice(i))) continue;
    const rest = segment(word.slice(i), max - 1);
    if (rest) return [head, ...rest];
  }
  return undefined;
}
