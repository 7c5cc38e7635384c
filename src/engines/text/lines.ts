import type { Word } from './types.js';

export interface TextLine {
  text: string;
  words: Word[];
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Groups words into visual lines: a word joins a line when its vertical centre lies within the line's
 * band. Works for PDF text runs and OCR boxes alike; reading order inside a line is left to right.
 */
export function groupLines(words: readonly Word[]): TextLine[] {
  const present = words.filter((w) => w.text.trim() !== '');
  if (present.length > 0 && present.every((w) => w.line !== undefined)) {
    const byLine = new Map<number, Word[]>();
    for (const w of present) byLine.set(w.line!, [...(byLine.get(w.line!) ?? []), w]);
    return finishLines([...byLine.values()]);
  }
  const sorted = [...words].filter((w) => w.text.trim() !== '').sort((a, b) => a.y + a.h / 2 - (b.y + b.h / 2));
  const lines: Word[][] = [];
  for (const word of sorted) {
    const centre = word.y + word.h / 2;
    const line = lines.find((l) => {
      const top = Math.min(...l.map((w) => w.y));
      const bottom = Math.max(...l.map((w) => w.y + w.h));
      const slack = Math.min(word.h, bottom - top) * 0.25;
      return centre > top + slack && centre < bottom - slack;
    });
    if (line) line.push(word);
    else lines.push([word]);
  }
  return finishLines(lines);
}

function finishLines(lines: Word[][]): TextLine[] {
  return lines
    .map((ws) => {
      ws.sort((a, b) => a.x - b.x);
      const x = Math.min(...ws.map((w) => w.x));
      const y = Math.min(...ws.map((w) => w.y));
      const right = Math.max(...ws.map((w) => w.x + w.w));
      const bottom = Math.max(...ws.map((w) => w.y + w.h));
      return { text: joinWords(ws), words: ws, x, y, w: right - x, h: bottom - y };
    })
    .sort((a, b) => a.y - b.y || a.x - b.x);
}

/** Joins words with one space, or with a wide gap marker when columns are far apart. */
function joinWords(words: readonly Word[]): string {
  let out = '';
  let prev: Word | undefined;
  for (const w of words) {
    if (prev) {
      const gap = w.x - (prev.x + prev.w);
      out += gap > Math.max(prev.h, w.h) * 2.5 ? '   ' : ' ';
    }
    out += w.text;
    prev = w;
  }
  return out;
}

/** Plain text of a page, one visual line per line. */
export function pageText(words: readonly Word[]): string {
  return groupLines(words)
    .map((l) => l.text)
    .join('\n');
}

/**
 * Splits each visual line at wide horizontal gaps into segments, so a two-column letter
 * (address on the left, "Statement date: ..." on the right) yields one segment per column.
 */
export function groupSegments(words: readonly Word[]): TextLine[] {
  const out: TextLine[] = [];
  for (const line of groupLines(words)) {
    let current: Word[] = [];
    for (const w of line.words) {
      const prev = current[current.length - 1];
      if (prev && w.x - (prev.x + prev.w) > Math.max(prev.h, w.h) * 2.5) {
        out.push(...finishLines([current]));
        current = [];
      }
      current.push(w);
    }
    if (current.length) out.push(...finishLines([current]));
  }
  return out;
}
