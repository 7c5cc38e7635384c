import type { MrzOcr } from './mrz-ocr.js';
import { namesSpan, parseMrz, type ParsedMrz } from './mrz-parse.js';
import { splitLines } from './mrz-ppocr.js';
import { shiftedAgainst, tesseractNamesConsensus, type FieldName } from './mrz-vote.js';
import type { MrzReading } from './read-mrz.js';

/**
 * Correlation (−1..1) a grid cell's best class must reach, and its lead over the runner-up class, for the
 * grid reader to settle a name letter. Chosen on set A and the even half of set B only.
 */
export const GRID_MIN_SCORE = 0.55;
export const GRID_MIN_MARGIN = 0.04;
/** Share of the undisputed names columns the grid must read as the readings do before its opinion counts. */
export const GRID_MIN_AGREEMENT = 0.9;

const NAME_CLASSES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ<';

/**
 * Name letters the readings disagree on, settled by the fixed-pitch cell reader (mrz-grid.ts) as a third
 * opinion: at a names-line column where the readings (of the accepted format and line length) offer two or
 * more characters, the grid reads the names line of up to two band crops (a tesseract one and a PP-OCR
 * one); when every grid reading's top class is one of the offered characters, confident (GRID_MIN_SCORE)
 * and clear of its runner-up (GRID_MIN_MARGIN), that character is written into every reading there and the
 * readings are parsed again. Names carry no check digit, so no check changes; the caller sends a name whose
 * reported letter the grid changed, or where it overruled a PP-OCR reading, to review (`fields`): a third
 * opinion picks between the engines but never, alone, makes a name valid. Columns the grid cannot settle are left as they were (and to nameDoubts).
 */
export async function settleByGrid(
  set: MrzReading[],
  parsed: ParsedMrz,
  ocr: MrzOcr,
  now: Date,
): Promise<{ set: MrzReading[]; resolved: Map<number, string>; fields: FieldName[] }> {
  const resolved = new Map<number, string>();
  const none = { set, resolved, fields: [] as FieldName[] };
  const { line: nl, start } = namesSpan(parsed.format);
  const width = parsed.lines[nl]?.length ?? 0;
  const sameFormat = set.filter(
    (r) => r.parsed?.format === parsed.format && r.lines.length === parsed.lines.length && r.lines[nl]?.length === width,
  );
  // A PP-OCR names line shifted against the line several tesseract passes agree on offers nothing (its
  // columns are not the name's columns), and is not rewritten: once filled in by the grid, it would no longer
  // look shifted and would win the vote again with a filler where the name has a letter.
  const consensus = tesseractNamesConsensus(sameFormat, nl);
  const same = sameFormat.filter((r) => consensus === null || r.engine !== 'ppocr' || !shiftedAgainst(r.lines[nl] ?? '', consensus));
  const disputed: { c: number; offered: Set<string> }[] = [];
  for (let c = start; c < width; c++) {
    const offered = new Set(same.map((r) => r.lines[nl]?.charAt(c) ?? '').filter((ch) => /^[A-Z<]$/.test(ch)));
    if (offered.size >= 2) disputed.push({ c, offered });
  }
  if (disputed.length === 0) return none;
  const crops = [same.find((r) => r.engine === 'tesseract'), same.find((r) => r.engine === 'ppocr')]
    .filter((r): r is MrzReading => r !== undefined)
    .map((r) => r.crop);
  const grids = [];
  for (const crop of crops) {
    const rows = splitLines(crop);
    const rowsOf = rows[nl];
    // Only a crop whose lines split as the format's lines (else the names line is not known in the crop).
    if (rows.length !== parsed.lines.length || !rowsOf) continue;
    const line = {
      data: crop.data.subarray(rowsOf[0] * crop.width, rowsOf[1] * crop.width),
      width: crop.width,
      height: rowsOf[1] - rowsOf[0],
    };
    // Names hold letters and fillers only.
    const g = await ocr.readGridLine(line, width, () => NAME_CLASSES);
    // The grid's cells must be the readings' columns: on the names columns nobody disputes, the grid reads
    // what the readings read (a cut one cell off, a line cut short or a watermark shows as disagreement).
    let agree = 0;
    let total = 0;
    for (let c = start; c < width; c++) {
      if (disputed.some((d) => d.c === c)) continue;
      total++;
      if (g?.cells[c]?.ch === parsed.lines[nl]?.charAt(c)) agree++;
    }
    if (g && total > 0 && agree >= total * GRID_MIN_AGREEMENT && !cellOff(g.cells, parsed.lines[nl] ?? '', start)) grids.push(g);
  }
  if (grids.length === 0) return none;
  for (const { c, offered } of disputed) {
    const cells = grids.map((g) => g.cells[c]);
    const ch = cells[0]?.ch;
    const ok = cells.every((x) => x !== undefined && x.ch === ch && x.score >= GRID_MIN_SCORE && x.score - x.altScore >= GRID_MIN_MARGIN);
    if (ch && ok && offered.has(ch)) resolved.set(c, ch);
  }
  if (resolved.size === 0) return none;
  const out = writeNamesLine(set, same, nl, (_, c) => resolved.get(c), now);
  // The fields where the grid changed the reported letter or overruled a PP-OCR reading (the name guard
  // judges names by PP-OCR's evidence, which the written letter no longer matches): review, never valid alone.
  const reported = parsed.lines[nl] ?? '';
  const split = reported.indexOf('<<', start);
  const fields = new Set<FieldName>();
  for (const [c, ch] of resolved) {
    const overruled = same.some((r) => r.engine === 'ppocr' && r.lines[nl]?.charAt(c) !== ch);
    if (reported.charAt(c) !== ch || overruled) fields.add(split < 0 || c < split ? 'surname' : 'givenNames');
  }
  return { set: out, resolved, fields: [...fields] };
}

/**
 * How many more of the reported names line's letters a grid reading must match one cell to the left or right
 * than in place to be called one cell off (cellOff). Two unrelated letters match by chance about once in 20.
 */
export const GRID_SHIFT_MIN_LEAD = 3;

/**
 * Whether a grid reading's cells sit one cell off the reported names line: GRID_SHIFT_MIN_LEAD more of its
 * letters match one cell to the left or right than in place. Where the readings disagree in nearly every
 * letter column (some of them shifted by a dropped letter), the undisputed columns are the fillers' run,
 * which reads the same one cell off, so the agreement test alone let a shifted grid write a neighbour's
 * letter into a name (the NLD specimen of set C: ALBERTINE reported ALBEETINE). A grid that matches few
 * letters anywhere is not called off: the reported line may be the shifted one (then the grid is right).
 */
export function cellOff(cells: readonly { ch: string }[], line: string, start: number): boolean {
  const [here = 0, left = 0, right = 0] = [0, -1, 1].map((d) => {
    let n = 0;
    for (let c = start; c < line.length; c++) if (/^[A-Z]$/.test(line.charAt(c)) && cells[c + d]?.ch === line.charAt(c)) n++;
    return n;
  });
  return Math.max(left, right) >= here + GRID_SHIFT_MIN_LEAD;
}

/**
 * The readings of `same` with their names line (`nl`) rewritten where `letter(ch, column)` answers one, each
 * parsed again (names carry no check digit, so no check changes); other readings as they were.
 */
export function writeNamesLine(
  set: MrzReading[],
  same: MrzReading[],
  nl: number,
  letter: (ch: string, column: number) => string | undefined,
  now: Date,
): MrzReading[] {
  return set.map((r) => {
    if (!same.includes(r)) return r;
    const line = r.lines[nl] ?? '';
    const fixed = line
      .split('')
      .map((ch, c) => letter(ch, c) ?? ch)
      .join('');
    if (fixed === line) return r;
    const lines = r.lines.map((l, i) => (i === nl ? fixed : l));
    try {
      return { ...r, lines, parsed: parseMrz(lines, { now }) };
    } catch {
      return r;
    }
  });
}
