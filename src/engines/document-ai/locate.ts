import { groupLines, groupSegments, type TextLine } from '../text/lines.js';
import type { TextPage, Word } from '../text/types.js';
import type { FieldSpec } from './field-spec.js';
import { findTypedValues, type FieldType, type TypedValue } from './value-types.js';
import { boxAround, joinWords, normToken, withinOneEdit, wordsInRange, type PageBox } from './word-text.js';

export type LocateMethod = 'anchor' | 'pattern' | 'region' | 'type_scan';

export interface Located {
  value: TypedValue;
  words: Word[];
  box: PageBox;
  method: LocateMethod;
}

interface Options {
  monthFirst?: boolean;
  defaultCountry?: string;
}

/** First value of the type in the words; a valid one wins over an earlier invalid one. */
function typedIn(words: readonly Word[], type: FieldType, options: Options): { value: TypedValue; words: Word[] } | null {
  if (words.length === 0) return null;
  const wt = joinWords(words);
  const values = findTypedValues(type, wt.text, options);
  const value = values.find((v) => v.valid) ?? values[0];
  if (!value) return null;
  return { value, words: wordsInRange(wt, value.index, value.index + value.raw.length) };
}

/** Where the anchor's words occur in a segment (OCR-tolerant), as the index just past them. */
function anchorEnd(segment: TextLine, anchorTokens: readonly string[]): number {
  const tokens = segment.words.map((w) => normToken(w.text));
  outer: for (let i = 0; i + anchorTokens.length <= tokens.length; i++) {
    for (let k = 0; k < anchorTokens.length; k++) {
      const a = anchorTokens[k] ?? '';
      const t = tokens[i + k] ?? '';
      if (!(t === a || (a.length >= 5 && withinOneEdit(t, a)))) continue outer;
    }
    return i + anchorTokens.length;
  }
  return -1;
}

function byAnchor(pages: readonly TextPage[], spec: FieldSpec, type: FieldType, options: Options): Located | null {
  const anchorTokens = (spec.anchor ?? '').split(/\s+/).map(normToken).filter(Boolean);
  for (let p = 0; p < pages.length; p++) {
    const segments = groupSegments(pages[p]!.words);
    for (const seg of segments) {
      const end = anchorEnd(seg, anchorTokens);
      if (end < 0) continue;
      const lineH = seg.h;
      const right = segments
        .filter((s) => s !== seg && s.x >= seg.x + seg.w && Math.abs(s.y + s.h / 2 - (seg.y + seg.h / 2)) < lineH * 0.6)
        .sort((a, b) => a.x - b.x)[0];
      const below = segments
        .filter((s) => s.y > seg.y + lineH * 0.5 && s.y - (seg.y + seg.h) < lineH * 1.5 && s.x < seg.x + seg.w && s.x + s.w > seg.x)
        .sort((a, b) => a.y - b.y)[0];
      const candidates = [seg.words.slice(end), right?.words ?? [], below?.words ?? []];
      for (const words of candidates) {
        const hit = typedIn(words, type, options);
        if (hit) return { ...hit, box: boxAround(p + 1, hit.words)!, method: 'anchor' };
      }
    }
  }
  return null;
}

function byPattern(pages: readonly TextPage[], spec: FieldSpec, type: FieldType, options: Options): Located | null {
  const re = new RegExp(spec.pattern ?? '', 'i');
  for (let p = 0; p < pages.length; p++) {
    for (const line of groupLines(pages[p]!.words)) {
      const wt = joinWords(line.words);
      const m = re.exec(wt.text);
      if (!m || m[0] === '') continue;
      const raw = m[1] ?? m[0];
      const index = m.index + (m[1] !== undefined ? m[0].indexOf(m[1]) : 0);
      const words = wordsInRange(wt, index, index + raw.length);
      const typed = type === 'string' ? null : findTypedValues(type, raw, options)[0];
      const value: TypedValue = typed ? { ...typed, raw, index } : { raw, index, normalized: raw, valid: type === 'string' };
      return { value, words, box: boxAround(p + 1, words)!, method: 'pattern' };
    }
  }
  return null;
}

function byRegion(pages: readonly TextPage[], spec: FieldSpec, type: FieldType, options: Options): Located | null {
  const r = spec.region!;
  const page = pages[r.page - 1];
  if (!page) return null;
  const inside = page.words.filter((w) => {
    const cx = (w.x + w.w / 2) / page.width;
    const cy = (w.y + w.h / 2) / page.height;
    return cx >= r.x && cx <= r.x + r.w && cy >= r.y && cy <= r.y + r.h;
  });
  const lines = groupLines(inside);
  if (type === 'string') {
    const words = lines.flatMap((l) => l.words);
    if (words.length === 0) return null;
    const raw = lines.map((l) => joinWords(l.words).text).join('\n');
    return {
      value: { raw, index: 0, normalized: raw.replace(/\s+/g, ' '), valid: true },
      words,
      box: boxAround(r.page, words)!,
      method: 'region',
    };
  }
  for (const line of lines) {
    const hit = typedIn(line.words, type, options);
    if (hit) return { ...hit, box: boxAround(r.page, hit.words)!, method: 'region' };
  }
  return null;
}

function byType(pages: readonly TextPage[], type: FieldType, options: Options): Located | null {
  for (let p = 0; p < pages.length; p++) {
    for (const line of groupLines(pages[p]!.words)) {
      const hit = typedIn(line.words, type, options);
      if (hit?.value.valid) return { ...hit, box: boxAround(p + 1, hit.words)!, method: 'type_scan' };
    }
  }
  return null;
}

/** Finds one field with the most specific locator the caller gave: region, then anchor, then pattern. */
export function locateField(pages: readonly TextPage[], spec: FieldSpec, options: Options = {}): Located | null {
  const type = spec.type ?? 'string';
  if (spec.region) return byRegion(pages, spec, type, options);
  if (spec.anchor) {
    const found = byAnchor(pages, spec, type, options);
    if (found || !spec.pattern) return found;
  }
  if (spec.pattern) return byPattern(pages, spec, type, options);
  return byType(pages, type, options);
}
