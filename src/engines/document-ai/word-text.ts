import type { TextPage, Word } from '../text/types.js';

/** Words joined by single spaces, with each word's start offset, so a match maps back to boxes. */
export interface WordText {
  text: string;
  words: Word[];
  starts: number[];
}

export function joinWords(words: readonly Word[]): WordText {
  let text = '';
  const starts: number[] = [];
  for (const w of words) {
    if (text) text += ' ';
    starts.push(text.length);
    text += w.text;
  }
  return { text, words: [...words], starts };
}

/** The words covering characters [from, to) of a WordText. */
export function wordsInRange(wt: WordText, from: number, to: number): Word[] {
  return wt.words.filter((w, i) => {
    const s = wt.starts[i] ?? 0;
    return s < to && s + w.text.length > from;
  });
}

export interface PageBox {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export function boxAround(page: number, words: readonly Word[]): PageBox | null {
  if (words.length === 0) return null;
  const x = Math.min(...words.map((w) => w.x));
  const y = Math.min(...words.map((w) => w.y));
  return { page, x, y, w: Math.max(...words.map((w) => w.x + w.w)) - x, h: Math.max(...words.map((w) => w.y + w.h)) - y };
}

export function relativeBox(box: PageBox, page: TextPage): PageBox {
  const r = (v: number, d: number): number => Math.round((v / (d || 1)) * 10_000) / 10_000;
  return { page: box.page, x: r(box.x, page.width), y: r(box.y, page.height), w: r(box.w, page.width), h: r(box.h, page.height) };
}

/** Lower-case letters and digits only: "Invoice No.:" and "invoice no" compare equal. */
export function normToken(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Edit distance up to a small bound, for OCR-garbled label words. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
