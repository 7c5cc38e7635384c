// Generates src/engines/screening/han-readings-data.ts, the compact tables behind the Japanese and
// Korean readings of names written in Han characters (src/engines/screening/han-readings.ts):
//   * Japanese surnames and given names with their pronunciation, from the IPAdic dictionary that the
//     npm package `kuromoji` ships (entries 名詞,固有名詞,人名,姓 and 名詞,固有名詞,人名,名 whose
//     surface is Han characters only; of several readings, the one with the lowest word cost);
//   * the Korean (hangul) reading of each CJK Unified Ideograph U+4E00–U+9FFF that Korean uses, from the
//     Unihan database's kHangul field (Debian package `unicode-data`, /usr/share/unicode): the first
//     reading marked N (used in personal names), else the first reading.
// kuromoji is a devDependency and unicode-data a Debian package (`apt-get install unicode-data`); the
// service reads only the generated file, never either source.
// Run: npx tsx scripts/generate-han-readings.ts [path to Unihan_Readings.txt.bz2]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const OUT = fileURLToPath(new URL('../src/engines/screening/han-readings-data.ts', import.meta.url));

interface KuromojiDictionary {
  dictionary: { buffer: Uint8Array; getShort(i: number): number };
  getFeatures(id: string): string;
}
interface KuromojiTokenizer {
  token_info_dictionary: KuromojiDictionary;
}
interface Kuromoji {
  builder(o: { dicPath: string }): { build(cb: (err: Error | null, t: KuromojiTokenizer) => void): void };
}

const kuromojiDir = dirname(require.resolve('kuromoji/package.json'));
const kuromojiVersion = (JSON.parse(readFileSync(join(kuromojiDir, 'package.json'), 'utf8')) as { version: string }).version;
const UNIHAN = process.argv[2] ?? '/usr/share/unicode/Unihan_Readings.txt.bz2';

const tokenizer = await new Promise<KuromojiTokenizer>((resolve, reject) => {
  (require('kuromoji') as Kuromoji).builder({ dicPath: join(kuromojiDir, 'dict') }).build((err, t) => (err ? reject(err) : resolve(t)));
});

// --- Japanese names -------------------------------------------------------------------------------
const HAN_ONLY = /^\p{Script=Han}{1,4}$/u;
const KATAKANA = /^[\u30a1-\u30fa\u30fc]+$/;
const best = { 姓: new Map<string, [string, number]>(), 名: new Map<string, [string, number]>() };
const dict = tokenizer.token_info_dictionary;
// Each entry of tid.dat is 10 bytes: left id, right id, word cost (shorts) and the offset of its features.
for (let id = 0; id + 10 <= dict.dictionary.buffer.length; id += 10) {
  const f = dict.getFeatures(String(id)).split(',');
  // surface, pos, pos1, pos2, pos3, conjugation type, conjugation form, base form, reading, pronunciation
  if (f[1] !== '名詞' || f[2] !== '固有名詞' || f[3] !== '人名' || (f[4] !== '姓' && f[4] !== '名')) continue;
  const surface = f[0]!;
  // The pronunciation writes long vowels with ー (サトー), which passport Hepburn drops: Sato.
  const reading = f[9] && KATAKANA.test(f[9]) ? f[9] : f[8] && KATAKANA.test(f[8]) ? f[8] : undefined;
  if (!HAN_ONLY.test(surface) || !reading) continue;
  const cost = dict.dictionary.getShort(id + 4);
  const table = best[f[4] as '姓' | '名'];
  const had = table.get(surface);
  if (!had || cost < had[1] || (cost === had[1] && reading < had[0])) table.set(surface, [reading, cost]);
}

function packNames(table: Map<string, [string, number]>): string {
  const entries = [...table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([s, [r]]) => s + r);
  const lines: string[] = [];
  for (let i = 0; i < entries.length; i += 40) lines.push(entries.slice(i, i + 40).join(''));
  return lines.join('\n');
}

// --- Korean readings ------------------------------------------------------------------------------
const readings = execFileSync('bzcat', [UNIHAN], { encoding: 'utf8', maxBuffer: 1 << 28 });
const unihanVersion = /# Unicode version: (\S+)/.exec(readings)?.[1] ?? 'unknown';
const hangul = new Map<number, string>();
for (const line of readings.split('\n')) {
  const [cp, field, value] = line.split('\t');
  if (field !== 'kHangul' || !cp || !value) continue;
  // "금:0E 김:0N": reading, then its sources (0–5 character sets; E educational, N personal names).
  const items = value.split(' ').map((v) => v.split(':') as [string, string]);
  const chosen = items.find(([, src]) => src?.includes('N')) ?? items[0];
  if (chosen && /^[\uac00-\ud7a3]$/.test(chosen[0])) hangul.set(parseInt(cp.slice(2), 16), chosen[0]);
}
let korean = '';
let koreanCount = 0;
for (let cp = 0x4e00; cp <= 0x9fff; cp++) {
  const h = hangul.get(cp);
  korean += h ?? '_';
  if (h) koreanCount++;
  if ((cp - 0x4e00) % 64 === 63) korean += '\n';
}
const unicodeCopyright = readFileSync('/usr/share/doc/unicode-data/copyright', 'utf8');
const END = 'authorization of the copyright holder.';
const unicodeNotice = unicodeCopyright
  .slice(unicodeCopyright.indexOf('COPYRIGHT AND PERMISSION NOTICE'), unicodeCopyright.indexOf(END) + END.length)
  .trim();
const unihanCopyright = /# (© \d{4} Unicode®, Inc\.)/.exec(readings)?.[1] ?? '© Unicode, Inc.';

const notice = readFileSync(join(kuromojiDir, 'NOTICE.md'), 'utf8');
const naist = notice.slice(notice.indexOf('mecab-ipadic-2.7.0-20070801\n---')).trim();

const out = `// GENERATED by scripts/generate-han-readings.ts — do not edit; re-run the script instead.
//
// Sources (read only by the generator):
//   * JA_SURNAMES / JA_GIVEN_NAMES: ${best.姓.size} surnames and ${best.名.size} given names written in Han characters,
//     with their katakana pronunciation, extracted from the IPAdic dictionary (mecab-ipadic-2.7.0-20070801)
//     shipped by kuromoji ${kuromojiVersion} (Apache-2.0); the dictionary data is under the NAIST licence below.
//   * KO_HANGUL: the hangul reading of ${koreanCount} CJK Unified Ideographs U+4E00–U+9FFF ('_' where none),
//     from the kHangul field of Unihan ${unihanVersion} (Debian unicode-data, Unihan_Readings.txt; the first
//     reading marked N, for personal names, else the first), under the Unicode licence below. Modified:
//     only one reading per character is kept.
//
/* eslint-disable */
/*
${naist.replace(/\*\//g, '* /')}
*/
/*
Unihan (Unicode Character Database) ${unihanVersion}, ${unihanCopyright}, as distributed by Debian's
unicode-data package (/usr/share/doc/unicode-data/copyright):

${unicodeNotice.replace(/\*\//g, '* /')}
*/

/** Surname (Han characters) immediately followed by its katakana pronunciation, entry after entry. */
export const JA_SURNAMES = \`
${packNames(best.姓)}
\`;

/** Given name (Han characters) immediately followed by its katakana pronunciation, entry after entry. */
export const JA_GIVEN_NAMES = \`
${packNames(best.名)}
\`;

/** One hangul syllable per code point from U+4E00, newlines ignored. */
export const KO_HANGUL = \`
${korean}
\`;
`;
writeFileSync(OUT, out);
console.log(
  `wrote ${OUT}: ${best.姓.size} surnames, ${best.名.size} given names, ${koreanCount} hanja readings (${(out.length / 1024).toFixed(0)} K characters)`,
);
