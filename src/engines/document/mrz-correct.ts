import { isLongNumberCheckValid, TO_DIGIT, TO_LETTER } from './mrz-check.js';
import { detectFormat, isKnownStateCode, namesSpan, parseMrz, td1NumberColumns, type IcaoFormat, type ParsedMrz } from './mrz-parse.js';

/**
 * Turns raw OCR text into MRZ lines and repairs OCR confusions: first by field type (a date holds only
 * digits, a state code only letters), then, for alphanumeric fields, by a look-alike substitution that makes
 * the field's check digit valid. A check digit is modulo 10, so a wrong substitution agrees with it about
 * one time in ten: the substitution is only made where the OCR itself was unsure of that character (its
 * per-character confidence, or its runner-up), and only when exactly one substitution satisfies the check.
 * When several would, nothing is changed and the field is reported as ambiguous (the document goes to
 * review). Every change is recorded so reviewers can see what OCR got wrong.
 */

export interface Correction {
  line: number;
  column: number;
  from: string;
  to: string;
  reason: 'field_type' | 'check_digit';
}

type Kind = 'num' | 'alpha' | 'alnum' | 'check' | 'sex' | 'any';
type Span = [line: number, start: number, end: number, kind: Kind];

const TWO_LINE_TOP = (w: number): Span[] => [
  [0, 0, 1, 'alpha'],
  [0, 1, 2, 'any'],
  [0, 2, 5, 'alpha'],
  [0, 5, w, 'alpha'],
];
const TEMPLATES: Record<IcaoFormat, Span[]> = {
  TD3: [
    ...TWO_LINE_TOP(44),
    [1, 0, 9, 'alnum'],
    [1, 9, 10, 'check'],
    [1, 10, 13, 'alpha'],
    [1, 13, 19, 'num'],
    [1, 19, 20, 'check'],
    [1, 20, 21, 'sex'],
    [1, 21, 27, 'num'],
    [1, 27, 28, 'check'],
    [1, 28, 42, 'alnum'],
    [1, 42, 43, 'check'],
    [1, 43, 44, 'check'],
  ],
  MRVA: [
    ...TWO_LINE_TOP(44),
    [1, 0, 9, 'alnum'],
    [1, 9, 10, 'check'],
    [1, 10, 13, 'alpha'],
    [1, 13, 19, 'num'],
    [1, 19, 20, 'check'],
    [1, 20, 21, 'sex'],
    [1, 21, 27, 'num'],
    [1, 27, 28, 'check'],
    [1, 28, 44, 'alnum'],
  ],
  TD2: [
    ...TWO_LINE_TOP(36),
    [1, 0, 9, 'alnum'],
    [1, 9, 10, 'check'],
    [1, 10, 13, 'alpha'],
    [1, 13, 19, 'num'],
    [1, 19, 20, 'check'],
    [1, 20, 21, 'sex'],
    [1, 21, 27, 'num'],
    [1, 27, 28, 'check'],
    [1, 28, 35, 'alnum'],
    [1, 35, 36, 'check'],
  ],
  MRVB: [
    ...TWO_LINE_TOP(36),
    [1, 0, 9, 'alnum'],
    [1, 9, 10, 'check'],
    [1, 10, 13, 'alpha'],
    [1, 13, 19, 'num'],
    [1, 19, 20, 'check'],
    [1, 20, 21, 'sex'],
    [1, 21, 27, 'num'],
    [1, 27, 28, 'check'],
    [1, 28, 36, 'alnum'],
  ],
  TD1: [
    [0, 0, 1, 'alpha'],
    [0, 1, 2, 'any'],
    [0, 2, 5, 'alpha'],
    [0, 5, 14, 'alnum'],
    [0, 14, 15, 'check'],
    [0, 15, 30, 'alnum'],
    [1, 0, 6, 'num'],
    [1, 6, 7, 'check'],
    [1, 7, 8, 'sex'],
    [1, 8, 14, 'num'],
    [1, 14, 15, 'check'],
    [1, 15, 18, 'alpha'],
    [1, 18, 29, 'alnum'],
    [1, 29, 30, 'check'],
    [2, 0, 30, 'alpha'],
  ],
};

const AMBIGUOUS: Record<string, string[]> = {
  '0': ['O', 'D', 'Q'],
  O: ['0', 'D', 'Q'],
  D: ['0', 'O'],
  Q: ['0', 'O'],
  '1': ['I', 'L', 'T'],
  I: ['1', 'L'],
  L: ['1', 'I'],
  '8': ['B'],
  B: ['8'],
  '5': ['S'],
  S: ['5'],
  '2': ['Z'],
  Z: ['2'],
  '6': ['G'],
  G: ['6'],
  '4': ['A'],
  A: ['4'],
  '7': ['T'],
  T: ['7'],
  // The legacy engine reads OCR-B "W" as "N" at MRZ sizes (seen on renders); M/H/N share the same strokes.
  N: ['W', 'M', 'H'],
  W: ['N'],
  M: ['N', 'H'],
  H: ['N', 'M'],
};

/**
 * Other ways to cut over-long lines to their ICAO length (drop the surplus at the end, or at the start)
 * than normaliseOcrLines' filler-run heuristic: a stray mark read beside the line shifts every column after
 * it. The vote (mrz-vote.ts) takes a variant only when all its check digits pass.
 */
export function lineCutVariants(text: string): string[][] {
  const fitted = normaliseOcrLines(text);
  const raw = text
    .split(/\r?\n/)
    .map(dropStrayTokens)
    .map((l) => l.replace(/[^A-Z0-9<]/g, ''))
    .filter((l) => l.length >= 20);
  const out: string[][] = [];
  for (const cut of ['end', 'start'] as const) {
    let changed = false;
    const lines = fitted.map((f) => {
      const width = f.length;
      const source = raw.find((r) => r.length > width && fitLength(r, width) === f);
      if (!source) return f;
      changed = true;
      return cut === 'end' ? source.slice(0, width) : source.slice(source.length - width);
    });
    if (changed && lines.some((l, i) => l !== fitted[i])) out.push(lines);
  }
  return out;
}

/** Extracts MRZ-looking lines from OCR output and pads or trims them to the nearest ICAO line length. */
export function normaliseOcrLines(text: string): string[] {
  const raw = text
    .split(/\r?\n/)
    .map(dropStrayTokens)
    .map((l) => l.replace(/[^A-Z0-9<]/g, ''))
    .filter((l) => l.length >= 20);
  if (raw.length < 2) return raw;
  const options = raw.length >= 3 ? [30, 36, 44] : [36, 44, 30];
  let best: { lines: string[]; cost: number } | null = null;
  for (const width of options) {
    const count = width === 30 ? 3 : 2;
    if (raw.length < count) continue;
    // MRZ lines are the last ones of the band; stray lines above come from visual-zone text.
    for (let start = raw.length - count; start >= 0; start--) {
      const lines = raw.slice(start, start + count).map((l, i) => (i === 0 ? dropStrayLead(l) : l));
      const cost = lines.reduce((s, l) => s + Math.abs(l.length - width), 0) + (raw.length - count - start) * 2;
      if (!best || cost < best.cost) best = { lines: lines.map((l) => fitLength(l, width)), cost };
    }
  }
  return best?.lines ?? raw;
}

/** First letters of ICAO document codes: P (TD3), I, A, C (TD1/TD2), V (visas). */
const DOCUMENT_CODE_FIRST = 'PIACV';

/**
 * A character read before the document code of the first line (a filler or a letter that no document code
 * starts with, from a card edge or a speck glued to the line) shifts the names line by one, and the vote then
 * sees a malformed reading or a wrong name. Dropped only when the next character starts a document code and
 * the state code then in place exists while the one in place before does not (a misread first letter of a
 * two-letter code, IP read as LP, keeps its state code in place and is not touched).
 */
function dropStrayLead(line: string): string {
  if (DOCUMENT_CODE_FIRST.includes(line.charAt(0)) || !DOCUMENT_CODE_FIRST.includes(line.charAt(1))) return line;
  const state = (l: string): boolean => isKnownStateCode(l.slice(2, 5).replace(/<+$/, ''));
  const shifted = line.slice(1);
  return state(shifted) && !state(line) ? shifted : line;
}

/** Marks on the band edge (card borders, hologram specks) show up as 1-2 character tokens beside the line. */
function dropStrayTokens(line: string): string {
  const tokens = line
    .toUpperCase()
    .trim()
    .split(/\s+/)
    .filter((t) => t.length > 0);
  while (tokens.length > 1 && (tokens[0]?.length ?? 0) <= 2 && tokens.slice(1).join('').length >= 28) tokens.shift();
  while (
    tokens.length > 1 &&
    (tokens.at(-1)?.length ?? 0) <= 2 &&
    !/^[<0-9]+$/.test(tokens.at(-1) ?? '') &&
    tokens.slice(0, -1).join('').length >= 28
  )
    tokens.pop();
  return tokens.join('');
}

function fitLength(line: string, width: number): string {
  if (line.length === width) return line;
  if (line.length < width) return line + '<'.repeat(width - line.length);
  // Extra characters are usually stray marks at the ends or filler runs read one character too long.
  let l = line;
  while (l.length > width && l.endsWith('<<')) l = l.slice(0, -1);
  while (l.length > width && /<<<+/.test(l)) l = l.replace(/<<<+/, (m) => m.slice(1));
  return l.slice(0, width);
}

export interface CorrectedMrz {
  parsed: ParsedMrz;
  corrections: Correction[];
  /** Check-digit fields that several look-alike substitutions would make valid: left as read, named here. */
  ambiguous: string[];
}

/** What the OCR knew about each character it read: confidence 0-100 and its runner-up, per line and column. */
export interface CharEvidence {
  confidence: number;
  alt?: string;
}

export interface CorrectOptions {
  /**
   * Per-character evidence aligned with `lines` (null where unknown). A check-digit substitution is made
   * only at a character whose confidence is below UNSURE_CONFIDENCE or whose runner-up is the substitute.
   * Without evidence every character counts as unsure (callers passing bare strings, tests).
   */
  evidence?: (CharEvidence | null)[][] | null;
}

/** Per-character OCR confidence (0-100) under which a character may be replaced to satisfy a check digit. */
export const UNSURE_CONFIDENCE = 85;

export function correctMrz(lines: string[], now: Date = new Date(), options: CorrectOptions = {}): CorrectedMrz | null {
  const format = detectFormat(lines);
  if (format === null) return null;
  if (format !== 'TD1' && format !== 'TD2' && format !== 'TD3' && format !== 'MRVA' && format !== 'MRVB') {
    return { parsed: parseMrz(lines, { now }), corrections: [], ambiguous: [] };
  }
  const grid = lines.map((l) => l.split(''));
  const corrections: Correction[] = [];
  const set = (line: number, col: number, to: string, reason: Correction['reason']): void => {
    const row = grid[line];
    const from = row?.[col];
    if (!row || from === undefined || from === to) return;
    row[col] = to;
    corrections.push({ line, column: col, from, to, reason });
  };
  const spans = TEMPLATES[format];
  for (const [line, start, end, kind] of spans) {
    // A state code (three letters) that would keep a digit after its look-alikes are replaced is left as read:
    // half a repair (a printed 132 made I3Z) names no state and no longer shows what the document prints.
    if (kind === 'alpha' && end - start === 3 && grid[line]?.slice(start, end).some((ch) => /[0-9]/.test(ch) && !TO_LETTER[ch])) continue;
    for (let c = start; c < end; c++) {
      const ch = grid[line]?.[c] ?? '<';
      if ((kind === 'num' || kind === 'check') && TO_DIGIT[ch]) set(line, c, TO_DIGIT[ch] ?? ch, 'field_type');
      else if (kind === 'alpha' && TO_LETTER[ch]) set(line, c, TO_LETTER[ch] ?? ch, 'field_type');
      else if (kind === 'sex' && !/[MFX<]/.test(ch))
        set(line, c, ch === 'H' || ch === 'N' ? 'M' : ch === 'E' || ch === 'P' ? 'F' : '<', 'field_type');
    }
  }
  // A TD1 long number's check digit sits in optional data 1 after the number's remainder: a digit position.
  if (format === 'TD1') {
    const digitColumn = td1NumberColumns(grid[0]?.join('') ?? '').at(-1) ?? 14;
    const ch = grid[0]?.[digitColumn] ?? '';
    if (digitColumn > 14 && TO_DIGIT[ch]) set(0, digitColumn, TO_DIGIT[ch] ?? ch, 'field_type');
  }
  // Names are left-justified and padded with fillers: after a run of three fillers only fillers follow. A
  // letter or two standing alone in that run is a speck, watermark or guilloche read as a glyph.
  const names = namesSpan(format);
  const row = grid[names.line];
  if (row) {
    const text = row.join('');
    const pad = text.indexOf('<<<', names.start);
    if (pad >= 0) {
      const tail = text.slice(pad);
      if (/^[<A-Z0-9]*$/.test(tail) && tail.split('<').every((t) => t.length <= 2)) {
        for (let c = pad; c < text.length; c++) if (text.charAt(c) !== '<') set(names.line, c, '<', 'field_type');
      }
    }
  }
  let parsed = parseMrz(
    grid.map((r) => r.join('')),
    { now },
  );
  const ambiguous: string[] = [];
  const unsure = (line: number, col: number, to: string): boolean => {
    const e = options.evidence?.[line]?.[col];
    if (!options.evidence) return true;
    if (!e) return false;
    return e.confidence < UNSURE_CONFIDENCE || e.alt === to;
  };
  for (const failed of parsed.checks.filter((k) => !k.valid && k.field !== 'composite')) {
    const span = alnumSpanFor(format, failed.field, grid);
    if (!span) continue;
    const [line, columns] = span;
    const fixes = findFixes(grid, line, columns, failed.digit, failed.data);
    const allowed = fixes.filter((f) => unsure(line, f.column, f.to));
    // Two different substitutions both satisfy the check digit: the digit cannot tell which is right.
    if (allowed.length > 1) ambiguous.push(failed.field);
    else if (allowed[0]) set(line, allowed[0].column, allowed[0].to, 'check_digit');
  }
  parsed = parseMrz(
    grid.map((r) => r.join('')),
    { now },
  );
  return { parsed, corrections, ambiguous };
}

/** The line and the columns of a repairable field's characters (its check digit's column excluded). */
function alnumSpanFor(format: IcaoFormat, field: string, grid: string[][]): [number, number[]] | null {
  const range = (start: number, end: number): number[] => Array.from({ length: end - start }, (_, i) => start + i);
  // A TD1 long number (ICAO 9303-5) continues in optional data 1: its digit sits after the remainder there.
  if (field === 'documentNumber') return format === 'TD1' ? [0, td1NumberColumns(grid[0]?.join('') ?? '').slice(0, -1)] : [1, range(0, 9)];
  if (field === 'personalNumber' && format === 'TD3') return [1, range(28, 42)];
  return null;
}

/**
 * The single look-alike swaps inside [start, end) that make `digit` a valid check of the field. Document
 * numbers put letters in a leading prefix: a letter is only plausible where it extends that prefix, and a
 * digit only from the prefix's last letter on. Note S/8 and G/6 have equal check values, so those confusions
 * can never be detected by the digit.
 */
function findFixes(grid: string[][], line: number, columns: number[], digit: string, data: string): { column: number; to: string }[] {
  const row = grid[line];
  if (!row) return [];
  const field = columns.map((c) => row[c] ?? '<').join('');
  // The field must be the data the parser checked: a layout read differently is not repaired here.
  if (field !== data) return [];
  // A gap in the columns is a long number's filler (TD1 column 14). Issuers disagree on whether the check
  // covers it, and the parser accepts both: so does the repair.
  const gap = columns.findIndex((c, i) => i > 0 && c !== (columns[i - 1] as number) + 1);
  const fixes: { column: number; to: string }[] = [];
  const prefix = /^[A-Z]*/.exec(field)?.[0].length ?? 0;
  for (let i = 0; i < field.length; i++) {
    for (const alt of AMBIGUOUS[field.charAt(i)] ?? []) {
      const toLetter = /[A-Z]/.test(alt);
      if (toLetter ? i > prefix : i < prefix - 1) continue;
      const candidate = field.slice(0, i) + alt + field.slice(i + 1);
      if (isLongNumberCheckValid(candidate, digit, gap)) fixes.push({ column: columns[i] as number, to: alt });
    }
  }
  return fixes;
}

/** Where each check-digit-protected field and its check digit sit: [line, start, end) including the digit. */
const CHECKED_SPANS: Record<IcaoFormat, Partial<Record<string, [number, number, number]>>> = {
  TD3: { documentNumber: [1, 0, 10], birthDate: [1, 13, 20], expiryDate: [1, 21, 28], personalNumber: [1, 28, 43] },
  MRVA: { documentNumber: [1, 0, 10], birthDate: [1, 13, 20], expiryDate: [1, 21, 28] },
  TD2: { documentNumber: [1, 0, 10], birthDate: [1, 13, 20], expiryDate: [1, 21, 28] },
  MRVB: { documentNumber: [1, 0, 10], birthDate: [1, 13, 20], expiryDate: [1, 21, 28] },
  TD1: { documentNumber: [0, 5, 15], birthDate: [1, 0, 7], expiryDate: [1, 8, 15] },
};

/**
 * Combines several OCR passes over the same MRZ: each field whose check digit fails in the first reading is
 * taken from another reading where it passes. The composite check digit, which covers all those fields,
 * must then pass too, so a merge cannot assemble a valid-looking MRZ from inconsistent pieces.
 */
export function mergeReadings(readings: ParsedMrz[], now: Date = new Date()): ParsedMrz | null {
  const [base, ...others] = readings;
  if (!base || others.length === 0) return null;
  const format = base.format;
  if (format !== 'TD1' && format !== 'TD2' && format !== 'TD3' && format !== 'MRVA' && format !== 'MRVB') return null;
  const grid = base.lines.map((l) => l.split(''));
  let changed = false;
  for (const failed of base.checks.filter((c) => !c.valid && c.field !== 'composite')) {
    const span = CHECKED_SPANS[format][failed.field];
    const donor = others.find((o) => o.format === format && o.checks.some((c) => c.field === failed.field && c.valid));
    if (!span || !donor) continue;
    const [line, start] = span;
    const row = grid[line];
    const src = donor.lines[line];
    if (!row || !src) continue;
    // A donor's long TD1 number runs on into optional data 1, up to the filler that ends it.
    const last = format === 'TD1' && failed.field === 'documentNumber' ? (td1NumberColumns(src).at(-1) ?? 14) : 14;
    const end = last > 14 ? Math.min(30, last + 2) : span[2];
    for (let c = start; c < end; c++) row[c] = src.charAt(c);
    changed = true;
  }
  if (!changed) return null;
  const merged = parseMrz(
    grid.map((r) => r.join('')),
    { now },
  );
  const hasComposite = merged.checks.some((c) => c.field === 'composite');
  return merged.valid && hasComposite ? merged : null;
}
