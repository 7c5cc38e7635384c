import { prepareName } from '../../engines/screening/normalize.js';
import type { EntityRecord } from '../../providers/registries/index.js';

/** The words a name is found by: the screening engine's normalised words, legal forms left out. */
export function nameTokens(names: string[]): string[] {
  const out = new Set<string>();
  for (const n of names)
    for (const t of prepareName(n, 'organization', false).tokens) if (t.kind !== 'legal' && t.text.length > 0) out.add(t.text);
  return [...out];
}

/**
 * A record's words that are paired: the first PAIR_WORDS of its distinct words in code-point order (names of
 * more words are rare; the rarer words find those). Migration 0046 applies the same rule to stored words.
 */
export const PAIR_WORDS = 8;

/** Code-point order (PostgreSQL's `COLLATE "C"` on UTF-8), not UTF-16 units or a locale. */
const byCodePoint = (a: string, b: string): number => {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a.codePointAt(i)!,
      y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
};

/**
 * The posting of two words held together, written "a b" (a before b in code-point order; normalised words hold
 * no space). A name search reads a pair's postings to find the records holding two common words, instead of
 * intersecting the words' long lists.
 */
export const pairToken = (a: string, b: string): string => (byCodePoint(a, b) <= 0 ? `${a} ${b}` : `${b} ${a}`);

/** Every pair of the given words (see PAIR_WORDS for which words of a record are paired). */
export function wordPairs(words: string[]): string[] {
  const w = [...new Set(words)].sort(byCodePoint).slice(0, PAIR_WORDS);
  const out: string[] = [];
  for (let i = 0; i < w.length; i++) for (let j = i + 1; j < w.length; j++) out.push(`${w[i]} ${w[j]}`);
  return out;
}

/** What a record is indexed by: its words and the pairs of its words. */
export const entityTokens = (e: EntityRecord): string[] => {
  const words = nameTokens([e.name, ...e.otherNames]);
  return [...words, ...wordPairs(words)];
};
