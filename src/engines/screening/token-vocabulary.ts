import { jaroWinkler } from './jaro-winkler.js';
import { levenshteinRatio } from './levenshtein.js';
import { phoneticKey, consonantSkeleton } from './phonetic.js';
import { latinKeys, spellingLengths, transcriptionKeys, transcriptionSimilarity, type TranscriptionUnit } from './transcription.js';

// The vocabulary is the set of distinct name tokens of an index. Fuzzy lookups run over the
// vocabulary (tens of thousands of words), never over the names (up to millions), which is what keeps
// a query's cost bounded: a typo costs a trigram scan of the vocabulary, then plain posting reads.

export interface VocabMatch {
  id: number;
  similarity: number;
}

const MIN_FUZZY = 0.8;
const MIN_TRANSCRIPTION = 0.75;
const MAX_FUZZY_MATCHES = 24;

function trigrams(t: string): string[] {
  const s = `^${t}$`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= s.length; i++) out.push(s.slice(i, i + 3));
  return out;
}

export class TokenVocabulary {
  readonly words: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly byPhon = new Map<string, number[]>();
  // Skeleton maps let an unvocalised Arabic/Hebrew transliteration ("mhmd") find "mohamed" and back.
  private readonly bySkel = new Map<string, number[]>();
  private readonly abjadBySkel = new Map<string, number[]>();
  /**
   * Words by their letters in sorted order ("putin" → "inptu"): two neighbouring letters swapped leave it
   * unchanged, while they destroy up to four of a word's trigrams (too many for the trigram scan in words
   * of five to seven letters) and two of its edits (too many for the long-word ratio).
   */
  private readonly bySorted = new Map<string, number[]>();
  private trigramPostings = new Map<string, Int32Array>();
  private counts = new Uint16Array(0);
  private touched = new Int32Array(0);

  /** Words by coarse consonant key (transcription.ts), built on the first transcription lookup. */
  private byCoarse: Map<string, number[]> | undefined;

  /** Words found only by exact or skeleton lookup (joined whole names), kept out of the fuzzy indexes. */
  private readonly exactOnly = new Set<number>();

  /**
   * Returns the id of a word, adding it when new. `fuzzy: false` is for joined whole names: at a
   * million names they would outnumber real words and flood the trigram and phonetic indexes.
   */
  add(word: string, abjad = false, fuzzy = true): number {
    let id = this.ids.get(word);
    if (id !== undefined && abjad) push(this.abjadBySkel, consonantSkeleton(word), id);
    if (id !== undefined && fuzzy && this.exactOnly.delete(id)) this.indexPhonetic(word, id);
    if (id === undefined) {
      id = this.words.length;
      this.words.push(word);
      this.ids.set(word, id);
      if (fuzzy) this.indexPhonetic(word, id);
      else this.exactOnly.add(id);
      const sk = consonantSkeleton(word);
      if (sk.length >= 2) {
        push(this.bySkel, sk, id);
        if (abjad) push(this.abjadBySkel, sk, id);
      }
    }
    return id;
  }

  private indexPhonetic(word: string, id: number): void {
    if (word.length >= MIN_SWAP_LENGTH) push(this.bySorted, sortedLetters(word), id);
    {
      const p = phoneticKey(word);
      if (p.length >= 2) {
        const list = this.byPhon.get(p);
        if (list) list.push(id);
        else this.byPhon.set(p, [id]);
      }
    }
  }

  get(word: string): number | undefined {
    return this.ids.get(word);
  }

  get size(): number {
    return this.words.length;
  }

  /** Builds the trigram index; call once after all words are added. */
  freeze(): void {
    const tmp = new Map<string, number[]>();
    this.words.forEach((w, id) => {
      if (w.length < 3 || this.exactOnly.has(id)) return;
      for (const g of new Set(trigrams(w))) {
        const l = tmp.get(g);
        if (l) l.push(id);
        else tmp.set(g, [id]);
      }
    });
    this.trigramPostings = new Map([...tmp].map(([g, l]) => [g, Int32Array.from(l)]));
    this.counts = new Uint16Array(this.words.length);
    this.touched = new Int32Array(this.words.length);
  }

  /**
   * Words similar to `word`: the exact word, words with the same phonetic key, and words sharing
   * enough trigrams whose Jaro-Winkler similarity is at least MIN_FUZZY.
   */
  lookup(word: string, abjad = false): VocabMatch[] {
    const out = new Map<number, number>();
    const exact = this.ids.get(word);
    if (exact !== undefined) out.set(exact, 1);
    if (word.length >= MIN_SWAP_LENGTH) {
      for (const id of this.bySorted.get(sortedLetters(word)) ?? []) {
        const w = this.words[id]!;
        if (!out.has(id) && oneSwapApart(word, w)) out.set(id, jaroWinkler(word, w));
      }
    }
    if (word.length >= 10) {
      // Long words are mostly joined names ("vladimirputin"): Jaro-Winkler rewards their shared
      // prefixes too much ("vladimirovich"), so only near-identical spellings count.
      this.fuzzy(word, out, (a, b) => levenshteinRatio(a, b), 0.85);
      if (abjad) for (const id of this.bySkel.get(consonantSkeleton(word)) ?? []) if (!out.has(id)) out.set(id, 0.88);
      return [...out].map(([id, similarity]) => ({ id, similarity }));
    }
    // Short keys ("al") group too many unrelated words to be useful for retrieval.
    const p = phoneticKey(word);
    if (p.length >= 3) {
      for (const id of this.byPhon.get(p) ?? []) {
        if (!out.has(id)) out.set(id, Math.max(0.8, jaroWinkler(word, this.words[id]!)));
      }
    }
    const sk = consonantSkeleton(word);
    if (sk.length >= 2) {
      for (const id of (abjad ? this.bySkel : this.abjadBySkel).get(sk) ?? []) if (!out.has(id)) out.set(id, 0.88);
    }
    if (word.length >= 3) this.fuzzy(word, out, jaroWinkler, MIN_FUZZY);
    return [...out].map(([id, similarity]) => ({ id, similarity }));
  }

  /**
   * Words a transcription (a foreign name in Chinese characters or Tamil) may spell: those whose coarse
   * consonant key is one of the transcription's, kept when their syllable-aware similarity is at least
   * MIN_TRANSCRIPTION. Joined whole names are included (敏昂莱 is "minaunghlaing").
   */
  lookupTranscription(units: readonly TranscriptionUnit[]): VocabMatch[] {
    const keys = transcriptionKeys(units);
    if (!keys) return [];
    if (!this.byCoarse) {
      this.byCoarse = new Map();
      this.words.forEach((w, id) => {
        for (const k of latinKeys(w)) if (k) push(this.byCoarse!, k, id);
      });
    }
    const scored: VocabMatch[] = [];
    const seen = new Set<number>();
    // A word far shorter or longer than any spelling of the transcription cannot reach the minimum.
    const [lo, hi] = spellingLengths(units);
    for (const k of keys) {
      for (const id of this.byCoarse.get(k) ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        const len = this.words[id]!.length;
        if (len < lo - 2 || len > hi + 3) continue;
        const s = transcriptionSimilarity(units, this.words[id]!, MIN_TRANSCRIPTION);
        if (s >= MIN_TRANSCRIPTION) scored.push({ id, similarity: s });
      }
    }
    scored.sort((a, b) => b.similarity - a.similarity);
    return scored.slice(0, MAX_FUZZY_MATCHES);
  }

  private fuzzy(word: string, out: Map<number, number>, sim: (a: string, b: string) => number, min: number): void {
    const grams = [...new Set(trigrams(word))];
    const touched = this.touched;
    let nTouched = 0;
    const counts = this.counts;
    for (const g of grams) {
      const post = this.trigramPostings.get(g);
      if (!post) continue;
      for (let i = 0; i < post.length; i++) {
        const id = post[i]!;
        if (counts[id] === 0) touched[nTouched++] = id;
        if (counts[id]! < 65535) counts[id]!++;
      }
    }
    // A typo destroys at most three trigrams, so a word one or two typos away keeps nearly half of
    // them; spelling variants that share fewer are the phonetic and skeleton indexes' job.
    const need = Math.max(2, Math.min(Math.ceil(grams.length * 0.45), grams.length - 3));
    const scored: VocabMatch[] = [];
    for (let t = 0; t < nTouched; t++) {
      const id = touched[t]!;
      const c = counts[id]!;
      counts[id] = 0;
      if (c < need || out.has(id)) continue;
      const w = this.words[id]!;
      if (Math.abs(w.length - word.length) > 3) continue;
      const s = sim(word, w);
      if (s >= min) scored.push({ id, similarity: s });
    }
    scored.sort((a, b) => b.similarity - a.similarity);
    for (const m of scored.slice(0, MAX_FUZZY_MATCHES)) out.set(m.id, m.similarity);
  }
}

/** Shortest word the sorted-letters key is kept for: a swap in a shorter word changes most of it. */
const MIN_SWAP_LENGTH = 4;

function sortedLetters(word: string): string {
  return [...word].sort().join('');
}

/** True when b is a with exactly one pair of neighbouring letters swapped. */
export function oneSwapApart(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let i = 0;
  while (a[i] === b[i]) i++;
  return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

function push(m: Map<string, number[]>, k: string, id: number): void {
  const l = m.get(k);
  if (!l) m.set(k, [id]);
  else if (l[l.length - 1] !== id) l.push(id);
}
