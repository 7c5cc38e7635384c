import { isLongNumberCheckValid } from './mrz-check.js';
import { UNSURE_CONFIDENCE, type CharEvidence } from './mrz-correct.js';

/**
 * Character-level merge of the check-digit lines of several readings of one MRZ, for the case where no
 * reading read a data line right everywhere but different readings got different columns right.
 *
 * Each reading's line is aligned to an anchor line (the reading closest to all others by edit distance:
 * a dropped character shifts the rest of a line and pads its end, which an alignment undoes), and each
 * column collects the characters the readings offer there: their own character (unless read with almost no
 * confidence) and, where the OCR was unsure of its own, its runner-up. A checked field is merged only from
 * those offered characters, and only where its check digit agrees:
 * - no combination of offered characters passes: no merge (the lines stay unaccepted);
 * - two or more different combinations pass: the field is ambiguous (a check digit is mod 10 and cannot
 *   tell them apart); the best-supported one is offered, the field is named so it is never reported valid.
 * A character that no reading offered is never used (no look-alike guessing here: that is what let wrong
 * fields through before issue #19).
 */

export interface MergeInput {
  lines: string[];
  /** Per-character evidence aligned to `lines` (null where unknown). */
  evidence?: (CharEvidence | null)[][];
}

export interface MergeResult {
  /** Candidate MRZs (all lines), best-supported first: each holds one passing value per checked field. */
  candidates: string[][];
  /** Checked fields for which more than one offered combination passes its check digit. */
  ambiguous: MergeField[];
}

export type MergeField = 'documentNumber' | 'birthDate' | 'expiryDate' | 'personalNumber';

/** An own character read with less confidence than this offers nothing (noise, not a reading). */
const MIN_OWN_CONFIDENCE = 20;
/** Alternatives kept per column, best-supported first. */
const MAX_OFFERS = 3;
/** Past this many combinations in one field the readings disagree too much to merge at all. */
const MAX_COMBINATIONS = 4096;
/** Passing values kept per field (the best and its rivals). */
const MAX_PASSING = 2;

type Kind = 'alnum' | 'date';
/** [field, line, start, end (exclusive, the check digit's column), kind] */
type CheckedSpan = [MergeField, number, number, number, Kind];

const TD3ISH: CheckedSpan[] = [
  ['documentNumber', 1, 0, 9, 'alnum'],
  ['birthDate', 1, 13, 19, 'date'],
  ['expiryDate', 1, 21, 27, 'date'],
];
const LAYOUT: Record<string, { spans: CheckedSpan[]; composite: [number, number] | null; lines: number[] }> = {
  TD3: { spans: [...TD3ISH, ['personalNumber', 1, 28, 42, 'alnum']], composite: [1, 43], lines: [1] },
  TD2: { spans: TD3ISH, composite: [1, 35], lines: [1] },
  MRVA: { spans: TD3ISH, composite: null, lines: [1] },
  MRVB: { spans: TD3ISH, composite: null, lines: [1] },
  TD1: {
    spans: [
      ['documentNumber', 0, 5, 14, 'alnum'],
      ['birthDate', 1, 0, 6, 'date'],
      ['expiryDate', 1, 8, 14, 'date'],
    ],
    composite: [1, 29],
    lines: [0, 1],
  },
};

interface Offer {
  ch: string;
  support: number;
}

/** The merged candidates, or null when the format has no layout, the readings are too few or a field cannot be merged. */
export function mergeDataLines(readings: MergeInput[], format: string): MergeResult | null {
  const layout = LAYOUT[format];
  if (!layout || readings.length < 2) return null;
  const columns = new Map<number, Offer[][]>();
  for (const line of layout.lines) {
    const offers = offersForLine(readings, line);
    if (!offers) return null;
    columns.set(line, offers);
  }
  // Start from the best-supported character in every column.
  const base =
    readings[0]?.lines.map(
      (l, i) =>
        columns
          .get(i)
          ?.map((o) => o[0]?.ch ?? '<')
          .join('') ?? l,
    ) ?? [];
  const ambiguous: MergeField[] = [];
  let sets: string[][] = [base];
  for (const span of layout.spans) {
    const [field, line] = span;
    const offered = columns.get(line) ?? [];
    // Every layout the offers allow (a TD1 number plain or long), each with its passing values: values of
    // two layouts are two readings of the field, so they make it ambiguous like two values of one layout.
    const passing = placements(span, format, offered)
      .flatMap((p) =>
        passingValues(
          p.columns.map((c) => offered[c] ?? []),
          p,
        ).map((v) => ({ ...v, placement: p })),
      )
      .sort((a, b) => b.support - a.support);
    if (passing.length === 0) return null;
    if (passing.length > 1) ambiguous.push(field);
    sets = sets.flatMap((s) => passing.slice(0, MAX_PASSING).map((v) => place(s, line, v.placement, v.value)));
  }
  if (layout.composite) {
    const [line, col] = layout.composite;
    const digits = (columns.get(line)?.[col] ?? []).filter((o) => /[0-9<]/.test(o.ch));
    if (digits.length === 0) return null;
    // The composite digit itself is one more column of offers; the parser keeps the combination it confirms.
    sets = sets.flatMap((s) => digits.map((o) => splice(s, line, col, o.ch)));
  }
  return { candidates: sets, ambiguous };
}

/**
 * Values of one checked field, made of characters the readings offer (as mergeDataLines offers them), that pass
 * its check digit and would change `lines` (an accepted MRZ) where placed: rivals the check digit cannot tell
 * from the accepted value. Empty when the format has no layout or the readings' lines cannot be aligned.
 */
export function passingRivals(readings: MergeInput[], format: string, lines: string[], field: MergeField): string[] {
  const span = LAYOUT[format]?.spans.find(([f]) => f === field);
  if (!span || readings.length < 2) return [];
  const line = span[1];
  const text = lines[line] ?? '';
  const offered = offersForLine(readings, line);
  if (!offered || offered.length !== text.length) return [];
  const out = new Set<string>();
  for (const p of placements(span, format, offered))
    for (const v of passingValues(
      p.columns.map((c) => offered[c] ?? []),
      p,
    ))
      if (place(lines, line, p, v.value)[line] !== text) out.add(v.value);
  return [...out];
}

/** Per column of the anchor line, the characters the readings offer there; null when lengths differ. */
function offersForLine(readings: MergeInput[], line: number): Offer[][] | null {
  const texts = readings.map((r) => r.lines[line] ?? '');
  const width = texts[0]?.length ?? 0;
  if (width === 0 || texts.some((t) => t.length !== width)) return null;
  // Anchor: the reading nearest to all the others (a shifted reading is far from the rest).
  let anchor = 0;
  let bestCost = Infinity;
  texts.forEach((t, i) => {
    const cost = texts.reduce((s, u) => s + editDistance(t, u), 0);
    if (cost < bestCost) {
      bestCost = cost;
      anchor = i;
    }
  });
  const anchorText = texts[anchor] as string;
  const columns: Map<string, number>[] = Array.from({ length: width }, () => new Map());
  readings.forEach((r, ri) => {
    const map = align(anchorText, texts[ri] as string);
    map.forEach((j, c) => {
      if (j < 0) return;
      const ch = (texts[ri] as string).charAt(j);
      const e = r.evidence?.[line]?.[j] ?? null;
      const column = columns[c] as Map<string, number>;
      if (!e || e.confidence >= MIN_OWN_CONFIDENCE) column.set(ch, (column.get(ch) ?? 0) + 1);
      // The runner-up is an offer only where the OCR itself was unsure of its own character.
      if (e?.alt && e.alt !== ch && e.confidence < UNSURE_CONFIDENCE) column.set(e.alt, (column.get(e.alt) ?? 0) + 0.5);
    });
  });
  return columns.map((m) =>
    [...m.entries()]
      .map(([ch, support]) => ({ ch, support }))
      .sort((a, b) => b.support - a.support || a.ch.localeCompare(b.ch))
      .slice(0, MAX_OFFERS),
  );
}

/**
 * Where a checked field's characters sit: `columns` of its line, the check digit's last; `fixed` columns that
 * the layout itself sets (a long number's fillers); `fillerAt`: where the check may also cover a filler.
 */
interface Placement {
  columns: number[];
  kind: Kind | 'number';
  fixed: [number, string][];
  fillerAt: number;
}

function placements([field, , start, end, kind]: CheckedSpan, format: string, offered: Offer[][]): Placement[] {
  const plain: Placement = { columns: Array.from({ length: end + 1 - start }, (_, i) => start + i), kind, fixed: [], fillerAt: -1 };
  if (format !== 'TD1' || field !== 'documentNumber' || !offered[14]?.some((o) => o.ch === '<')) return [plain];
  // ICAO 9303-5 long number: `<` at column 14, the remainder and its check digit in optional data 1, up to
  // the first filler (where the best-supported offers put it). Its characters are never fillers.
  let stop = 15;
  while (stop < 30 && offered[stop]?.[0]?.ch !== '<') stop++;
  if (stop === 15) return [plain];
  const long: Placement = {
    columns: [...plain.columns.slice(0, 9), ...Array.from({ length: stop - 15 }, (_, i) => 15 + i)],
    kind: 'number',
    fixed:
      stop < 30
        ? [
            [14, '<'],
            [stop, '<'],
          ]
        : [[14, '<']],
    fillerAt: 9,
  };
  return [plain, long];
}

/** The distinct field values (field characters + check digit) made of offered characters whose check digit agrees, best-supported first. */
function passingValues(offers: Offer[][], { kind, fillerAt }: Placement): { value: string; support: number }[] {
  const allowed = (ch: string, last: boolean): boolean =>
    last
      ? (kind === 'number' ? /[0-9]/ : /[0-9<]/).test(ch)
      : (kind === 'date' ? /[0-9]/ : kind === 'number' ? /[A-Z0-9]/ : /[A-Z0-9<]/).test(ch);
  const filtered = offers.map((o, i) => o.filter((x) => allowed(x.ch, i === offers.length - 1)));
  if (filtered.some((o) => o.length === 0)) return [];
  if (filtered.reduce((n, o) => n * o.length, 1) > MAX_COMBINATIONS) return [];
  const out: { value: string; support: number }[] = [];
  const walk = (i: number, value: string, support: number): void => {
    if (i === filtered.length) {
      const field = value.slice(0, -1);
      // A merged date must be a calendar-shaped date: an impossible one is no reading of a printed date.
      if (isLongNumberCheckValid(field, value.slice(-1), fillerAt) && (kind !== 'date' || plausibleDate(field)))
        out.push({ value, support });
      return;
    }
    for (const o of filtered[i] ?? []) walk(i + 1, value + o.ch, support + o.support);
  };
  walk(0, '', 0);
  return out;
}

function plausibleDate(yymmdd: string): boolean {
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

function splice(lines: string[], line: number, start: number, value: string): string[] {
  return lines.map((l, i) => (i === line ? l.slice(0, start) + value + l.slice(start + value.length) : l));
}

function place(lines: string[], line: number, placement: Placement, value: string): string[] {
  const row = (lines[line] ?? '').split('');
  placement.columns.forEach((c, i) => (row[c] = value.charAt(i)));
  for (const [c, ch] of placement.fixed) row[c] = ch;
  return lines.map((l, i) => (i === line ? row.join('') : l));
}

/** Levenshtein distance of two strings. */
export function editDistance(a: string, b: string): number {
  return table(a, b)[a.length]?.[b.length] ?? 0;
}

function table(a: string, b: string): number[][] {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  return d;
}

/**
 * For each column of `anchor`, the column of `other` aligned with it by a minimal edit script (-1 where
 * `other` dropped the character). Ties prefer a substitution, so equal-length lines align column to column.
 */
export function align(anchor: string, other: string): number[] {
  const d = table(anchor, other);
  const map = Array.from({ length: anchor.length }, () => -1);
  let i = anchor.length;
  let j = other.length;
  while (i > 0 && j > 0) {
    const here = d[i]?.[j] as number;
    const diag = (d[i - 1]?.[j - 1] as number) + (anchor[i - 1] === other[j - 1] ? 0 : 1);
    if (here === diag) {
      map[i - 1] = j - 1;
      i--;
      j--;
    } else if (here === (d[i - 1]?.[j] as number) + 1) i--;
    else j--;
  }
  return map;
}
