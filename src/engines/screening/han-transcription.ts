// Chinese transcriptions of foreign names (弗拉基米尔·普京 for Vladimir Putin, 敏昂莱 for Min Aung Hlaing).
// Chinese writes a foreign name syllable by syllable with a limited stock of characters chosen for their
// sound, laid down in the Xinhua News Agency's transcription tables (《世界人名翻译大辞典》 and the
// per-language 译音表: a grid of foreign consonant × vowel, each cell one character). Read in pinyin such
// a name stays far from its Latin spelling ("fu la ji mi er pu jing"), because the grid maps several
// foreign sounds to one Mandarin syllable and uses characters for bare consonants (弗 v, 尔 r, 斯 s, 德 d).
// Here each character becomes a unit of the Latin spellings its Mandarin reading stands for in those
// tables (derived from its pinyin by the grid's correspondences, written below), compared with Latin
// words syllable by syllable (transcription.ts).
//
// Which names are transcriptions: a name whose Han words are separated by the interpunct (·, the mark
// of a foreign name in Chinese), or one whose characters all belong to the transcription stock and that
// is not shaped like a Chinese name (two or three characters starting with a common surname; a Chinese
// name is read only in pinyin as before).
import { pinyin } from 'pinyin-pro';
import type { TranscriptionUnit } from './transcription.js';

// Characters of the Xinhua transcription grids (English, Russian, German, French, Spanish, Arabic and
// the characters reserved for women's names), by the foreign consonant they stand for.
const STOCK = new Set([
  ...'阿埃艾爱安昂奥欧乌厄尔耳伊因英恩翁亚雅娅耶叶约尤扬延永',
  ...'布巴贝比博波班邦本宾拜鲍伯柏卜彼别贝蓓葆宝保',
  ...'普帕佩皮珀潘庞彭平蓬派裴蒲朴',
  ...'德达代戴迪蒂多杜丹当登丁东敦顿黛得',
  ...'特塔泰提托图坦唐滕廷汀通屯陶汤',
  ...'格加盖吉戈古甘冈根金京贡圭果伽',
  ...'克卡凯基科库坎康肯孔奎寇',
  ...'夫瓦维沃武万旺文温冯法费菲福富凡方芬丰弗伏娃薇韦威伍',
  ...'兹扎泽齐佐祖赞曾津宗孜',
  ...'斯萨塞西索苏桑森辛松锡丝莎珊赛撒瑟',
  ...'什沙谢希肖舒尚申欣雄舍绍朔',
  ...'奇查切乔丘钱昌琴钦青琼契秋楚',
  ...'贾杰詹章真久季佳姬',
  ...'赫哈霍胡汉杭亨兴洪海侯罕翰豪惠华',
  ...'拉莱利洛卢兰朗伦林隆勒列廖柳里罗鲁雷瑞赖莉丽琳露蕾劳理路',
  ...'姆马梅米莫穆曼芒门明蒙麦迈默玛敏缪',
  ...'纳内尼诺努南嫩宁农奈娜妮涅瑙',
  ...'茨察策措日热茹若卓捷',
  ...'吴觉貌丁山素昂',
]);

// Common Chinese surnames (the first hundred by frequency): a name starting with one, without an
// interpunct, is taken for a Chinese name even when its characters could transcribe a foreign one.
const CHINESE_SURNAMES = new Set([
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裘霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝',
]);
const COMPOUND_SURNAMES = new Set(['欧阳', '司马', '诸葛', '上官', '东方', '皇甫', '令狐', '慕容', '司徒', '夏侯', '尉迟', '长孙']);

// Readings that the transcription tables use where the character has several (什 shi, not shen).
const TRANSCRIPTION_READING: Record<string, string> = {
  什: 'shi',
  茜: 'xi',
  莎: 'sha',
  扎: 'zha',
  柏: 'bo',
  那: 'na',
  伽: 'ga',
  卜: 'bu',
  朴: 'pu',
  盖: 'gai',
  单: 'dan',
  贾: 'jia',
  若: 'ruo',
};

// Characters the grids use for a consonant without a vowel (布 b, 斯 s, 尔 r): their vowel is free.
// (尔 r and 恩 n are their final already.)
const BARE = new Set([...'布普德特格克夫弗兹茨斯丝什奇赫姆日契卜勒瑟泽策舍热哲伯福默']);

type Options = Array<[string, number]>;

// Foreign consonants each pinyin initial stands for in the grids (the first is the usual one).
const INITIAL: Record<string, Options> = {
  '': [
    ['', 0],
    ['h', 0.2],
  ],
  b: [
    ['b', 0],
    ['p', 0.5],
  ],
  p: [
    ['p', 0],
    ['b', 0.5],
  ],
  m: [['m', 0]],
  f: [
    ['f', 0],
    ['v', 0],
    ['ph', 0],
    ['w', 0.2],
  ],
  d: [
    ['d', 0],
    ['t', 0.5],
  ],
  t: [
    ['t', 0],
    ['d', 0.5],
    ['th', 0],
  ],
  n: [['n', 0]],
  l: [
    ['l', 0],
    ['r', 0],
  ],
  g: [
    ['g', 0],
    ['k', 0.2],
    ['gh', 0],
  ],
  k: [
    ['k', 0],
    ['c', 0],
    ['q', 0],
    ['kh', 0],
    ['g', 0.3],
    ['ch', 0.3],
  ],
  h: [
    ['h', 0],
    ['kh', 0],
    ['', 0.2],
    ['ch', 0.3],
  ],
  // The palatals stand for foreign g/k/d/t/z before i and e (基 ki, gi; Russian ди and ти: 季, 京).
  j: [
    ['j', 0],
    ['g', 0],
    ['k', 0.2],
    ['d', 0.2],
    ['t', 0.3],
    ['dj', 0],
    ['zh', 0],
    ['z', 0.3],
  ],
  q: [
    ['ch', 0],
    ['tch', 0],
    ['c', 0.2],
    ['k', 0.2],
    ['t', 0.3],
    ['ts', 0.2],
    ['j', 0.3],
  ],
  x: [
    ['s', 0],
    ['sh', 0],
    ['h', 0.2],
    ['kh', 0.2],
    ['x', 0],
    ['ch', 0.3],
  ],
  zh: [
    ['zh', 0],
    ['j', 0],
    ['g', 0.2],
    ['dj', 0],
    ['ch', 0.2],
    ['z', 0.2],
  ],
  ch: [
    ['ch', 0],
    ['tch', 0],
    ['c', 0.2],
    ['k', 0.3],
  ],
  sh: [
    ['sh', 0],
    ['sch', 0],
    ['s', 0.2],
    ['ch', 0.2],
  ],
  r: [
    ['r', 0],
    ['zh', 0],
    ['j', 0.2],
    ['l', 0.2],
  ],
  z: [
    ['z', 0],
    ['s', 0.2],
    ['dz', 0],
    ['ts', 0.2],
    ['tz', 0],
  ],
  c: [
    ['ts', 0],
    ['tz', 0],
    ['c', 0],
    ['z', 0.2],
    ['s', 0.3],
  ],
  s: [
    ['s', 0],
    ['z', 0.2],
    ['th', 0.2],
    ['c', 0.2],
  ],
  y: [
    ['', 0],
    ['y', 0],
    ['j', 0.2],
    ['i', 0],
  ],
  w: [
    ['', 0],
    ['w', 0],
    ['v', 0],
    ['u', 0],
  ],
};

// Foreign vowels and rhymes each pinyin final stands for.
const FINAL: Record<string, Options> = {
  a: [
    ['a', 0],
    ['ah', 0],
    ['e', 0.3],
    ['o', 0.3],
  ],
  o: [
    ['o', 0],
    ['a', 0.3],
    ['ou', 0],
  ],
  // The grids' e row also writes a foreign o (戈 go, 科 ko).
  e: [
    ['e', 0],
    ['o', 0.2],
    ['a', 0.2],
    ['i', 0.2],
    ['', 0.3],
    ['er', 0.2],
  ],
  i: [
    ['i', 0],
    ['y', 0],
    ['e', 0.2],
    ['ee', 0],
    ['ie', 0],
  ],
  u: [
    ['u', 0],
    ['o', 0.2],
    ['ou', 0],
    ['oo', 0],
    ['', 0.3],
  ],
  v: [
    ['u', 0],
    ['yu', 0],
    ['iu', 0],
  ],
  ai: [
    ['ai', 0],
    ['ay', 0],
    ['ei', 0],
    ['ey', 0],
    ['e', 0],
    ['a', 0.2],
    ['i', 0.3],
  ],
  ei: [
    ['ei', 0],
    ['ey', 0],
    ['e', 0],
    ['ay', 0],
    ['ai', 0],
    ['i', 0.2],
  ],
  ao: [
    ['ao', 0],
    ['o', 0],
    ['au', 0],
    ['ow', 0],
    ['ou', 0.2],
  ],
  ou: [
    ['ou', 0],
    ['o', 0],
    ['u', 0],
    ['ow', 0],
    ['oo', 0],
  ],
  an: [
    ['an', 0],
    ['en', 0.2],
    ['un', 0.2],
    ['on', 0.2],
    ['am', 0.3],
    ['ann', 0],
  ],
  en: [
    ['en', 0],
    ['an', 0.2],
    ['in', 0.2],
    ['un', 0.2],
    ['n', 0.2],
    ['em', 0.3],
    ['on', 0.2],
  ],
  ang: [
    ['ang', 0],
    ['an', 0],
    ['on', 0.2],
    ['ong', 0],
    ['aung', 0],
    ['un', 0.3],
  ],
  eng: [
    ['eng', 0],
    ['en', 0],
    ['on', 0.2],
    ['un', 0.2],
    ['an', 0.2],
    ['ein', 0],
  ],
  ong: [
    ['ong', 0],
    ['on', 0],
    ['un', 0],
    ['ung', 0],
  ],
  er: [
    ['r', 0],
    ['l', 0],
    ['er', 0],
    ['ar', 0],
    ['or', 0],
    ['ir', 0],
    ['re', 0],
  ],
  ia: [
    ['ia', 0],
    ['ya', 0],
    ['a', 0.2],
    ['ja', 0],
  ],
  ie: [
    ['ie', 0],
    ['ye', 0],
    ['e', 0],
    ['je', 0],
    ['ier', 0.2],
  ],
  iao: [
    ['iao', 0],
    ['yo', 0],
    ['io', 0],
    ['eo', 0],
    ['o', 0.2],
  ],
  iu: [
    ['iu', 0],
    ['yu', 0],
    ['u', 0.2],
    ['ew', 0],
    ['yo', 0.2],
  ],
  ian: [
    ['ian', 0],
    ['yan', 0],
    ['en', 0],
    ['an', 0.2],
    ['ien', 0],
    ['in', 0.3],
  ],
  in: [
    ['in', 0],
    ['een', 0],
    ['en', 0.2],
    ['ine', 0],
    ['im', 0.3],
  ],
  iang: [
    ['iang', 0],
    ['yang', 0],
    ['ian', 0],
    ['yan', 0],
  ],
  ing: [
    ['ing', 0],
    ['in', 0],
    ['en', 0.2],
    ['ine', 0],
  ],
  iong: [
    ['iong', 0],
    ['yong', 0],
    ['yon', 0],
    ['on', 0.3],
  ],
  ua: [
    ['ua', 0],
    ['wa', 0],
    ['va', 0],
    ['a', 0.3],
  ],
  uo: [
    ['uo', 0],
    ['o', 0],
    ['wo', 0],
    ['vo', 0],
    ['a', 0.3],
  ],
  uai: [
    ['uai', 0],
    ['wai', 0],
    ['vai', 0],
  ],
  ui: [
    ['ui', 0],
    ['wi', 0],
    ['vi', 0],
    ['wei', 0],
    ['uei', 0],
    ['we', 0],
  ],
  uan: [
    ['uan', 0],
    ['wan', 0],
    ['van', 0],
    ['an', 0.2],
    ['on', 0.3],
  ],
  un: [
    ['un', 0],
    ['on', 0],
    ['an', 0.2],
    ['en', 0.2],
    ['wen', 0],
  ],
  uang: [
    ['uang', 0],
    ['wang', 0],
    ['van', 0],
  ],
  ue: [
    ['ue', 0],
    ['ye', 0],
    ['e', 0.2],
    ['yo', 0.3],
  ],
  van: [
    ['uan', 0],
    ['yan', 0],
    ['an', 0.2],
    ['en', 0.2],
  ],
  vn: [
    ['un', 0],
    ['in', 0],
    ['yun', 0],
  ],
};

const INITIALS = ['zh', 'ch', 'sh', 'b', 'p', 'm', 'f', 'd', 't', 'n', 'l', 'g', 'k', 'h', 'j', 'q', 'x', 'r', 'z', 'c', 's', 'y', 'w'];

/** Latin spellings (with costs) a Han character stands for in a transcription; undefined for a character without a reading. */
export function hanUnit(ch: string): TranscriptionUnit | undefined {
  const py = (TRANSCRIPTION_READING[ch] ?? pinyin(ch, { toneType: 'none', type: 'array' })[0] ?? '').replace(/ü/g, 'v');
  if (!/^[a-z]+$/.test(py)) return undefined;
  const initial = INITIALS.find((i) => py.startsWith(i)) ?? '';
  let final = py.slice(initial.length);
  // After j, q, x and y a written u is ü.
  if ('jqxy'.includes(initial) && initial && final.startsWith('u')) final = 'v' + final.slice(1);
  if (initial === 'y' && final === 'i') final = 'i';
  if (initial === 'y' && final === 'in') final = 'in';
  if (initial === 'y' && final === 'ing') final = 'ing';
  if (initial === 'w' && final === 'u') final = 'u';
  const ini = INITIAL[initial] ?? [['', 0]];
  // The "empty" vowel after the sibilants is no vowel at all in a transcription (斯 s, 兹 z, 什 sh).
  const apical = final === 'i' && ['z', 'c', 's', 'zh', 'ch', 'sh', 'r'].includes(initial);
  let fin: Options = apical
    ? [
        ['', 0],
        ['i', 0.1],
        ['e', 0.2],
        ['y', 0.1],
      ]
    : (FINAL[final] ?? [[final, 0]]);
  if (BARE.has(ch)) fin = [['', 0], ...fin.filter(([l]) => l !== '')];
  else if (initial && ['e', 'u', 'i'].includes(final) && !apical) fin = [...fin.filter(([l]) => l !== ''), ['', 0.5]];
  // A character stands for at least one letter.
  if (!initial && fin.some(([l]) => l === '')) fin = fin.filter(([l]) => l !== '');
  return [ini, fin];
}

const HAN_RE = /\p{Script=Han}/u;
const INTERPUNCT_RE = /[·・•‧]/u;
const NAME_RE = /^[\p{Script=Han}\s·・•‧]+$/u;

/**
 * The words of a name read as a Chinese transcription of a foreign name, each a sequence of units;
 * undefined when the name is not one (see the file comment for how that is decided).
 */
export function hanTranscription(name: string): Array<{ text: string; units: TranscriptionUnit[] }> | undefined {
  const s = name.normalize('NFKC').trim();
  if (!HAN_RE.test(s) || !NAME_RE.test(s)) return undefined;
  const words = s.split(/[\s·・•‧]+/u).filter(Boolean);
  const chars = [...words.join('')];
  if (chars.length < 2) return undefined;
  const interpunct = INTERPUNCT_RE.test(s) && words.length > 1;
  if (!interpunct) {
    if (!chars.every((c) => STOCK.has(c))) return undefined;
    // Chinese personal names have two or three characters (four with a two-character surname).
    if (COMPOUND_SURNAMES.has(chars[0]! + (chars[1] ?? ''))) return undefined;
    if (chars.length <= 3 && CHINESE_SURNAMES.has(chars[0]!)) return undefined;
  } else if (chars.filter((c) => STOCK.has(c)).length < chars.length * 0.6) return undefined;
  const out: Array<{ text: string; units: TranscriptionUnit[] }> = [];
  for (const w of words) {
    const units: TranscriptionUnit[] = [];
    for (const c of w) {
      const u = hanUnit(c);
      if (!u) return undefined;
      units.push(u);
    }
    const text = pinyin(w, { toneType: 'none', type: 'array' }).join('');
    out.push({ text, units });
  }
  return out;
}

/** The readings of a name as a transcription (one, or none when the name is not one). */
export function hanTranscriptions(name: string): Array<Array<{ text: string; units: TranscriptionUnit[] }>> {
  const words = hanTranscription(name);
  return words ? [words] : [];
}
