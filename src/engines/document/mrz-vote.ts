import { correctMrz, type CharEvidence, type Correction } from './mrz-correct.js';
import { editDistance, mergeDataLines, passingRivals, type MergeField } from './mrz-merge.js';
import { isKnownStateCode, namesSpan, parseMrz, td1NumberColumns, type ParsedMrz } from './mrz-parse.js';

/**
 * Whole-line voting over several readings of one MRZ (OCR passes at different scales and contrasts, and
 * two OCR engines). A candidate MRZ takes each of its lines whole from some reading, and is accepted only
 * when every check digit passes and every field is well formed. Free combination of characters across
 * engines lets a wrong field through (its check digit agrees one time in ten); only when no combination of
 * whole lines passes are the data lines merged column by column (mrz-merge.ts), from characters the readings
 * offered, with every checked field that two merged values would satisfy reported ambiguous.
 *
 * When accepted candidates disagree on a field that a check digit protects, both readings satisfy the
 * digit and the digit cannot tell them apart: the field is reported as ambiguous, and the document goes to
 * review rather than passing with a number that may be wrong.
 */

/** `ocrb`: our OCR-B line network as a third reader (MrzOcr's `thirdNet`; on by default since 2026-11-25). */
export type MrzEngine = 'tesseract' | 'ppocr' | 'ocrb';

export interface VoteInput {
  engine: MrzEngine;
  /** MRZ lines after field-type and (evidence-guarded) check-digit correction. */
  lines: string[];
  parsed: ParsedMrz | null;
  corrections: Correction[];
  ambiguous: string[];
  /** Per-character OCR evidence aligned to `lines`, for the character-level merge (mrz-merge.ts). */
  evidence?: (CharEvidence | null)[][];
}

export type FieldName =
  'documentNumber' | 'birthDate' | 'expiryDate' | 'personalNumber' | 'surname' | 'givenNames' | 'nationality' | 'issuingState' | 'sex';

export interface FieldConfidence {
  field: FieldName;
  /** high: read identically by two or more readings (and by both engines when both ran), no rival;
   * medium: one reading, or only through a guarded check-digit substitution, not contradicted; low: rival
   * readings (for checked fields: rivals that also pass the digit; for names: any well-formed reading spells them
   * otherwise). */
  level: 'high' | 'medium' | 'low';
  /** Share of the readings of this MRZ that read the reported value (0-1). */
  agreement: number;
  /** Readings that read the reported value, out of `of`. */
  readings: number;
  of: number;
  /** Whether a check digit protects the field. */
  checked: boolean;
  /** Other values that some reading produced (for checked fields: only values that also pass the digit). */
  rivals: string[];
}

export interface VoteResult {
  parsed: ParsedMrz;
  /** Index of the reading whose lines contributed most (for geometry, corrections). */
  lead: number;
  /** How many readings read each chosen line exactly. */
  lineSupport: number[];
  /** Engines that read the check-digit lines exactly as chosen. */
  confirmedBy: MrzEngine[];
  fieldConfidence: FieldConfidence[];
  /** Check-digit fields with two different readings that both pass their digit. */
  ambiguous: FieldName[];
}

const CHECKED: FieldName[] = ['documentNumber', 'birthDate', 'expiryDate', 'personalNumber'];
const UNCHECKED: FieldName[] = ['surname', 'givenNames', 'nationality', 'issuingState', 'sex'];
const MAX_VARIANTS_PER_LINE = 6;

/** The accepted MRZ, or null when no combination of whole lines passes every check. */
export function voteLines(inputs: VoteInput[], now: Date): VoteResult | null {
  const usable = inputs.filter((r) => r.parsed !== null && r.lines.length >= 2);
  if (usable.length === 0) return null;
  // Group by format: lines of a TD1 and a TD3 reading cannot be combined.
  const byFormat = new Map<string, VoteInput[]>();
  for (const r of usable) {
    const key = `${r.parsed?.format}:${r.lines.length}`;
    byFormat.set(key, [...(byFormat.get(key) ?? []), r]);
  }
  let best: { result: VoteResult; score: number } | null = null;
  for (const group of byFormat.values()) {
    const result = voteGroup(group, now);
    if (!result) continue;
    const score = result.lineSupport.reduce((s, n) => s + n, 0);
    if (!best || score > best.score) best = { result: { ...result, lead: inputs.indexOf(group[result.lead] as VoteInput) }, score };
  }
  return best?.result ?? null;
}

function voteGroup(input: VoteInput[], now: Date): VoteResult | null {
  const group = chevronsFromTesseract(input, now);
  const lineCount = group[0]?.lines.length ?? 0;
  const variants: Variant[][] = [];
  const namesLine = namesSpan(group[0]?.parsed?.format ?? '').line;
  // PP-OCR names lines that lost their preference as shifted (demoteShiftedNames): the other engine still
  // read the name otherwise, so a name they disagree on is `low` (review), never valid on tesseract alone.
  const shiftedNames: string[] = [];
  for (let i = 0; i < lineCount; i++) {
    const counts = new Map<string, Variant>();
    for (const r of group) {
      const text = r.lines[i] ?? '';
      const v = counts.get(text) ?? { text, support: 0, engines: new Set<MrzEngine>() };
      v.support++;
      v.engines.add(r.engine);
      counts.set(text, v);
    }
    const line = [...counts.values()];
    if (i === namesLine) {
      demoteShiftedNames(line, tesseractNamesConsensus(group, namesLine));
      shiftedNames.push(...line.filter((v) => v.shifted).map((v) => v.text));
    }
    variants.push(line.sort((a, b) => weight(b) - weight(a)).slice(0, MAX_VARIANTS_PER_LINE));
  }
  const accepted: { lines: string[]; parsed: ParsedMrz; support: number[]; engines: Set<MrzEngine>[]; weight: number }[] = [];
  const walk = (i: number, picked: { text: string; support: number; engines: Set<MrzEngine> }[]): void => {
    if (i === lineCount) {
      const lines = picked.map((p) => p.text);
      let parsed: ParsedMrz;
      try {
        parsed = parseMrz(lines, { now });
      } catch {
        return;
      }
      if (acceptable(parsed)) {
        accepted.push({
          lines,
          parsed,
          support: picked.map((p) => p.support),
          engines: picked.map((p) => p.engines),
          // A well-formed reading beats a better-supported malformed one (a dropped or shifted first
          // character leaves a document code and state codes that do not exist).
          weight: sum(picked.map(weight)) - 1000 * (parsed.problems.length + (parsed.fields.documentType === 'other' ? 1 : 0)),
        });
      }
      return;
    }
    for (const v of variants[i] ?? []) walk(i + 1, [...picked, v]);
  };
  walk(0, []);
  // No combination of whole lines passes: the data lines merged character by character across the readings
  // (mrz-merge.ts). A merged line is read whole by no reading: it adds no support and no engine, and a field
  // that more than one merged value would satisfy is ambiguous.
  const mergedAmbiguous: FieldName[] = [];
  if (accepted.length === 0 && group.length >= 2) {
    const merged = mergeDataLines(group, group[0]?.parsed?.format ?? '');
    if (merged) {
      for (const candidate of merged.candidates)
        candidate.forEach((text, i) => {
          const line = variants[i];
          if (line && !line.some((v) => v.text === text)) line.push({ text, support: 0, engines: new Set() });
        });
      mergedAmbiguous.push(...merged.ambiguous);
      walk(0, []);
    }
  }
  if (accepted.length === 0) return null;
  // The best-supported combination is reported; the others are rivals.
  accepted.sort((a, b) => b.weight - a.weight);
  const chosen = fieldMajority(accepted[0] as (typeof accepted)[number], group, now);
  const ambiguous = CHECKED.filter(
    (f) =>
      mergedAmbiguous.includes(f) ||
      accepted.some((a) => value(a.parsed, f) !== value(chosen.parsed, f)) ||
      minorityWithRival(group, chosen, f),
  );
  // Check-digit lines: the lines holding a check digit (TD3/TD2/MRV: line 2; TD1: lines 1 and 2).
  const checkedLines = chosen.parsed.format === 'TD1' ? [0, 1] : [1];
  const confirmedBy = [...intersect(checkedLines.map((i) => chosen.engines[i] ?? new Set<MrzEngine>()))];
  const doubted = namesDisputedBy(chosen.parsed, shiftedNames);
  const fieldConfidence = confidences(group, chosen.parsed, accepted, ambiguous).map((f) =>
    doubted.includes(f.field) ? { ...f, level: 'low' as const } : f,
  );
  const lead = Math.max(
    0,
    group.findIndex((r) => r.lines.every((l, i) => l === chosen.lines[i])),
    group.findIndex((r) => checkedLines.every((i) => r.lines[i] === chosen.lines[i])),
  );
  return { parsed: chosen.parsed, lead, lineSupport: chosen.support, confirmedBy, fieldConfidence, ambiguous };
}

/**
 * Whether checked field `f` of the chosen MRZ was read by no more than half of the readings and the readings' own
 * characters, merged column by column (mrz-merge.ts), also spell another value that passes its check digit. Readings
 * that fail a digit are no rivals in the whole-line vote, yet they may have read the field right: a Polish specimen's
 * ZS0000177 read by three tesseract passes as ZSOOOO177 (failing) and by two readings as 250000177, whose Z→2 and
 * S→5 cancel in the digit. The digit cannot choose between such values, so the field is ambiguous (review).
 */
function minorityWithRival(group: VoteInput[], chosen: { parsed: ParsedMrz; lines: string[] }, f: FieldName): boolean {
  const reported = value(chosen.parsed, f);
  if (reported === null || !CHECKED.includes(f)) return false;
  const agreeing = group.filter((r) => r.parsed && value(r.parsed, f) === reported).length;
  if (agreeing * 2 > group.length) return false;
  return passingRivals(group, chosen.parsed.format, chosen.lines, f as MergeField).length > 0;
}

type Variant = { text: string; support: number; engines: Set<MrzEngine>; shifted?: boolean };

/**
 * Tesseract passes that must read a names line identically before a shifted PP-OCR line loses to it. Set on
 * the tuned sets: 3 left a specimen that two passes read right (even half) with PP-OCR's shifted line.
 */
export const SHIFTED_NAMES_MIN_SUPPORT = 2;

/**
 * PP-OCR's names line is preferred to tesseract's (weight: the legacy engine reads OCR-B M as H), but a CTC
 * reading can drop a letter of a name (a doubled letter merged, a faint one skipped) and the length-forced
 * decoder then shifts the rest or pads the end with fillers, so PP-OCR's line can hold fewer letters, and fillers
 * where the name has letters. A PP-OCR-only names line that the tesseract consensus (`consensus`, from
 * tesseractNamesConsensus) explains better by characters dropped or added than by letters changed (edit
 * distance under the count of differing columns) is marked `shifted`: it loses PP-OCR's preference and the
 * line read by more passes wins. Letter-for-letter disagreements (M read as H) keep the preference.
 */
export function demoteShiftedNames(line: Variant[], consensus: string | null): void {
  if (consensus === null) return;
  for (const v of line) if (!v.engines.has('tesseract') && shiftedAgainst(v.text, consensus)) v.shifted = true;
}

/**
 * The names line (`nl`) that SHIFTED_NAMES_MIN_SUPPORT or more tesseract readings read identically (the most
 * read), or null: the one reference a PP-OCR names line is judged shifted against, by the vote
 * (demoteShiftedNames) and by the cell reader (settleByGrid).
 */
export function tesseractNamesConsensus(readings: { engine: MrzEngine; lines: string[] }[], nl: number): string | null {
  const counts = new Map<string, number>();
  for (const r of readings) if (r.engine === 'tesseract') counts.set(r.lines[nl] ?? '', (counts.get(r.lines[nl] ?? '') ?? 0) + 1);
  const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return top && top[0] !== '' && top[1] >= SHIFTED_NAMES_MIN_SUPPORT ? top[0] : null;
}

/** The name fields of `parsed` in whose columns any of `lines` (other readings of its names line) differs. */
function namesDisputedBy(parsed: ParsedMrz, lines: string[]): FieldName[] {
  const { line: nl, start } = namesSpan(parsed.format);
  const line = parsed.lines[nl] ?? '';
  const split = line.indexOf('<<', start);
  const out = new Set<FieldName>();
  for (const other of lines)
    for (let c = start; c < line.length; c++)
      if (other.charAt(c) !== line.charAt(c)) out.add(split < 0 || c < split ? 'surname' : 'givenNames');
  return [...out];
}

/** Whether `text` differs from `ref` (same length) by characters dropped or added rather than changed. */
export function shiftedAgainst(text: string, ref: string): boolean {
  if (text.length !== ref.length) return false;
  let differing = 0;
  for (let c = 0; c < text.length; c++) if (text.charAt(c) !== ref.charAt(c)) differing++;
  return editDistance(text, ref) < differing;
}

/**
 * Per-field confidence of a reading that no vote accepted (a check digit fails in every combination the readings
 * offer), on the same scale as an accepted MRZ's, so that a document refused or sent to review still says which
 * of its fields the readings support. Two rules are stricter here, where the document's own digits are shown to be
 * unreliable (misread or misprinted): a checked field whose digit fails is `low`, and so is a checked value that
 * only a check-digit substitution produced (the digit that steered it is no stronger than the ones that fail).
 * Rivals of a checked field are the other readings' values that pass its digit. `ambiguous`: the chosen
 * reading's check-digit fields that several substitutions would have made valid (left as read).
 */
export function fallbackConfidences(group: VoteInput[], chosen: ParsedMrz, ambiguous: readonly string[]): FieldConfidence[] {
  const same = group.filter((r) => r.parsed?.format === chosen.format && r.lines.length === chosen.lines.length);
  const parsed = same.filter((r): r is VoteInput & { parsed: ParsedMrz } => r.parsed !== null);
  return confidences(
    same,
    chosen,
    parsed,
    CHECKED.filter((f) => ambiguous.includes(f)),
    true,
  );
}

function confidences(
  group: VoteInput[],
  chosen: ParsedMrz,
  accepted: { parsed: ParsedMrz }[],
  ambiguous: FieldName[],
  fallback = false,
): FieldConfidence[] {
  const engines = new Set(group.map((r) => r.engine));
  const failing = new Set(chosen.checks.filter((c) => !c.valid).map((c) => c.field as string));
  const out: FieldConfidence[] = [];
  for (const field of [...CHECKED, ...UNCHECKED]) {
    const reported = value(chosen, field);
    if (reported === null) continue;
    const checked = CHECKED.includes(field);
    const values = group.map((r) => (r.parsed ? value(r.parsed, field) : null));
    const agreeing = group.filter((_, i) => values[i] === reported);
    // A reading whose value needed a check-digit substitution counts only when some reading read it as is.
    const rawAgreeing = agreeing.filter((r) => !r.corrections.some((c) => c.reason === 'check_digit' && inField(c, chosen, field)));
    const rivals = checked
      ? [
          ...new Set(
            accepted
              .filter((a) => a.parsed.checks.find((c) => c.field === field)?.valid !== false)
              .map((a) => value(a.parsed, field))
              .filter((v): v is string => v !== null && v !== reported),
          ),
        ]
      : // A malformed reading (no such document code, shifted line) is no witness against a name.
        [...new Set(values.filter((v, i): v is string => v !== null && v !== reported && wellFormed(group[i]?.parsed ?? null)))];
    const agreeEngines = new Set(agreeing.map((r) => r.engine));
    let level: FieldConfidence['level'];
    // A value that only a check-digit substitution produced (made only at a character its OCR was unsure
    // of, and only when unique) stands at medium unless another reading contradicts it with a value of its own.
    // An unchecked value that no reading read whole (a state code spelt column by column) stays low.
    // A checked value that no reading read whole (its data line merged column by column, mrz-merge.ts) is low too:
    // the merge may take characters from several readings, and a mod-10 digit agrees with a wrong one often.
    // A TD1 long number (ICAO 9303-5) that only a substitution produced is low as well: its digit covers up to
    // 14 characters, is accepted with and without the filler (as issuers differ), and the composite weighs line
    // 1's characters as the number's digit does, so a wrong swap there passes every check more often.
    const substitutedLong = field === 'documentNumber' && rawAgreeing.length === 0 && isLongTd1Number(chosen);
    if (
      ambiguous.includes(field) ||
      (rawAgreeing.length === 0 && (rivals.length > 0 || !checked || substitutedLong || fallback)) ||
      agreeing.length === 0 ||
      (fallback && failing.has(field))
    )
      level = 'low';
    else if (rawAgreeing.length === 0) level = 'medium';
    else if (!checked && agreeing.length * 2 <= group.length && rivals.length > 0) level = 'low';
    // A name has no check digit: when a well-formed reading spells it otherwise, the majority is no proof (an
    // OCR-B M read as H by three readings of four, the fourth offering A), so neither spelling is trusted.
    else if ((field === 'surname' || field === 'givenNames') && rivals.length > 0) level = 'low';
    else if (agreeing.length >= 2 && (agreeEngines.size === engines.size || engines.size === 1) && (checked || rivals.length === 0))
      level = 'high';
    else level = 'medium';
    out.push({
      field,
      level,
      agreement: Math.round((agreeing.length / group.length) * 100) / 100,
      readings: agreeing.length,
      of: group.length,
      checked,
      rivals: rivals.slice(0, 3),
    });
  }
  return out;
}

/**
 * PP-OCR reads the OCR-B chevron as K now and then. In the names line (no check digit to catch it), a K
 * where a tesseract reading of the same line has a filler is taken as the filler; whole names then agree.
 */
function chevronsFromTesseract(group: VoteInput[], now: Date): VoteInput[] {
  const tess = group.filter((r) => r.engine === 'tesseract');
  if (tess.length === 0) return group;
  return group.map((r) => {
    if (r.engine !== 'ppocr' || !r.parsed) return r;
    const names = namesSpan(r.parsed.format).line;
    const line = r.lines[names];
    if (!line) return r;
    const fixed = line
      .split('')
      .map((ch, c) => (ch === 'K' && tess.some((t) => t.lines[names]?.charAt(c) === '<') ? '<' : ch))
      .join('');
    if (fixed === line) return r;
    const lines = r.lines.map((l, i) => (i === names ? fixed : l));
    try {
      return { ...r, lines, parsed: parseMrz(lines, { now }) };
    } catch {
      return r;
    }
  });
}

/** Spans of fields no check digit covers, inside lines that also hold checked fields. */
const UNCHECKED_SPANS: Record<string, [number, number, number][]> = {
  TD3: [
    [0, 2, 5],
    [1, 10, 13],
    [1, 20, 21],
  ],
  TD2: [
    [0, 2, 5],
    [1, 10, 13],
    [1, 20, 21],
  ],
  MRVA: [
    [0, 2, 5],
    [1, 10, 13],
    [1, 20, 21],
  ],
  MRVB: [
    [0, 2, 5],
    [1, 10, 13],
    [1, 20, 21],
  ],
  TD1: [
    [0, 2, 5],
    [1, 7, 8],
    [1, 15, 18],
  ],
};

/**
 * A line is taken whole for its check digits, but the unprotected fields inside it (state codes, sex) are
 * each taken by majority of all readings: a misread nationality travels with an otherwise correct line.
 * The result must still parse as valid; else the whole-line choice stands.
 */
function fieldMajority<T extends { lines: string[]; parsed: ParsedMrz }>(chosen: T, group: VoteInput[], now: Date): T {
  const spans = UNCHECKED_SPANS[chosen.parsed.format] ?? [];
  const lines = [...chosen.lines];
  let changed = false;
  for (const [line, start, end] of spans) {
    const counts = new Map<string, number>();
    for (const r of group) {
      const v = r.lines[line]?.slice(start, end);
      if (v !== undefined && v.length === end - start) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const current = lines[line]?.slice(start, end) ?? '';
    // A state code that exists beats one that does not, whatever the count (a field-type prior like
    // "dates are digits", not a guess steered by a check digit).
    const known = (v: string): number => (end - start === 3 && isKnownStateCode(v.replace(/<+$/, '')) ? 1 : 0);
    const [top] = [...counts.entries()].sort((a, b) => known(b[0]) - known(a[0]) || b[1] - a[1]);
    let pick = top && top[0] !== current && (known(top[0]) > known(current) || top[1] > (counts.get(current) ?? 0)) ? top[0] : current;
    // No reading read a state code that exists: the one existing code the readings' letters spell, column by
    // column (a letter misread in every reading of one engine, read right by the other in a line misread
    // elsewhere). Read whole by no reading, so the field is reported `low` (confidences: no reading agrees).
    if (end - start === 3 && known(pick) === 0) pick = stateFromColumns(group, line, start, current) ?? pick;
    if (pick !== current) {
      lines[line] = (lines[line] ?? '').slice(0, start) + pick + (lines[line] ?? '').slice(end);
      changed = true;
    }
  }
  if (!changed) return chosen;
  try {
    const parsed = parseMrz(lines, { now });
    return acceptable(parsed) ? { ...chosen, lines, parsed } : chosen;
  } catch {
    return chosen;
  }
}

/**
 * The one existing state code (3 characters at `start` of line `line`) that the readings' characters spell
 * column by column, each character read there by some reading of the same line length; null when none or
 * several do. Each column offers at most a few characters, so the combinations stay few.
 */
export function stateFromColumns(readings: { lines: string[] }[], line: number, start: number, current: string): string | null {
  const width = readings.map((r) => r.lines[line]?.length ?? 0).find((n) => n > 0) ?? 0;
  const columns: string[][] = [];
  for (let c = start; c < start + 3; c++) {
    const offered = new Set<string>();
    for (const r of readings) {
      const l = r.lines[line];
      if (l?.length === width && /^[A-Z<]$/.test(l.charAt(c))) offered.add(l.charAt(c));
    }
    if (offered.size === 0 || offered.size > 4) return null;
    columns.push([...offered]);
  }
  const found = new Set<string>();
  for (const a of columns[0] ?? [])
    for (const b of columns[1] ?? [])
      for (const c of columns[2] ?? []) {
        const code = a + b + c;
        if (code !== current && !/^<|<[A-Z]/.test(code) && isKnownStateCode(code.replace(/<+$/, ''))) found.add(code);
      }
  return found.size === 1 ? ([...found][0] as string) : null;
}

function isLongTd1Number(p: ParsedMrz): boolean {
  return p.format === 'TD1' && (td1NumberColumns(p.lines[0] ?? '').at(-1) ?? 14) > 14;
}

/** Whether a correction at (line, column) falls inside a field, for the formats' fixed layouts. */
function inField(c: Correction, chosen: ParsedMrz, field: FieldName): boolean {
  // A TD1 long number (ICAO 9303-5) runs on into optional data 1.
  if (chosen.format === 'TD1' && field === 'documentNumber')
    return c.line === 0 && td1NumberColumns(chosen.lines[0] ?? '').includes(c.column);
  const span = SPANS[chosen.format]?.[field];
  return span !== undefined && c.line === span[0] && c.column >= span[1] && c.column < span[2];
}

const TD3ISH = { documentNumber: [1, 0, 10], birthDate: [1, 13, 20], expiryDate: [1, 21, 28], personalNumber: [1, 28, 43] } as const;
const SPANS: Record<string, Partial<Record<FieldName, readonly [number, number, number]>>> = {
  TD3: TD3ISH,
  TD2: TD3ISH,
  MRVA: TD3ISH,
  MRVB: TD3ISH,
  TD1: { documentNumber: [0, 5, 15], birthDate: [1, 0, 7], expiryDate: [1, 8, 15] },
};

function value(p: ParsedMrz, field: FieldName): string | null {
  const v = p.fields[field];
  if (v === undefined || v === null) return null;
  return String(v);
}

function wellFormed(p: ParsedMrz | null): boolean {
  return (
    p !== null &&
    p.fields.documentType !== 'other' &&
    p.problems.every((x) => !x.startsWith('invalid_') || x === 'invalid_birth_date' || x === 'invalid_expiry_date')
  );
}

/**
 * Every check digit passes and nothing is malformed, except possibly an impossible date that its check digit
 * confirms (printed that way: the decision fails it as mrz_field_invalid) or an unknown state code.
 */
function acceptable(p: ParsedMrz): boolean {
  if (!p.checkDigitsValid || p.checks.length === 0) return false;
  return p.problems.every((x) => x === 'invalid_birth_date' || x === 'invalid_expiry_date' || x.startsWith('unknown_'));
}

/**
 * How much a line variant is trusted: first by how many engines read it (passes of one engine share its
 * systematic misreads), then PP-OCR over tesseract (the legacy engine reads OCR-B W as N or H, M as H:
 * on real captures PP-OCR's names were right where the two disagreed), then by how many passes read it.
 */
function weight(v: { support: number; engines: Set<MrzEngine>; shifted?: boolean }): number {
  return v.engines.size * 100 + (v.engines.has('ppocr') && !v.shifted ? 50 : 0) + v.support;
}

function sum(v: number[]): number {
  return v.reduce((s, n) => s + n, 0);
}

function intersect<T>(sets: Set<T>[]): Set<T> {
  const [first, ...rest] = sets;
  if (!first) return new Set();
  return new Set([...first].filter((x) => rest.every((s) => s.has(x))));
}

/** Corrects one reading's lines with its per-character evidence, never throwing. */
export function correctReading(
  lines: string[],
  evidence: (CharEvidence | null)[][] | null,
  now: Date,
): { parsed: ParsedMrz; corrections: Correction[]; ambiguous: string[] } | null {
  try {
    return correctMrz(lines, now, { evidence });
  } catch {
    return null;
  }
}

/**
 * Per-character evidence for normalised MRZ lines from the OCR's own lines: each MRZ line is matched with
 * the OCR line that agrees with it in most positions, and a column gets evidence only where the two hold
 * the same character (padding and trimming shift columns; where they do, no evidence means no substitution).
 */
export function alignEvidence(
  lines: string[],
  ocr: { chars: { ch: string; confidence: number; alt?: string }[] }[],
): (CharEvidence | null)[][] {
  return lines.map((line) => {
    let best: { chars: { ch: string; confidence: number; alt?: string }[]; hits: number; shift: number } | null = null;
    // A line whose stray leading character was dropped (normaliseOcrLines) sits one or two columns left of
    // the OCR's own line: its evidence follows it there (an unshifted match wins a tie).
    for (const shift of [0, 1, 2])
      for (const o of ocr) {
        let hits = 0;
        for (let c = 0; c < line.length; c++) if (o.chars[c + shift]?.ch === line.charAt(c)) hits++;
        if (!best || hits > best.hits) best = { chars: o.chars, hits, shift };
      }
    return line.split('').map((ch, c) => {
      const e = best?.chars[c + best.shift];
      return e && e.ch === ch ? { confidence: e.confidence, ...(e.alt ? { alt: e.alt } : {}) } : null;
    });
  });
}
