import { performance } from 'node:perf_hooks';
import type { GrayImage } from './image-ops.js';
import { settleByGrid, writeNamesLine } from './mrz-grid-settle.js';
import { classifyLookalike, glyphFeatures, LOOKALIKE_LETTERS, type Lookalike } from './mrz-glyph.js';
import { extractBand, findMrzBands, type MrzBand } from './locate.js';
import { lineCutVariants, normaliseOcrLines, type CharEvidence, type Correction } from './mrz-correct.js';
import type { MrzOcr, NetEngine, OcrLine } from './mrz-ocr.js';
import { isKnownStateCode, namesSpan, parseMrz, type MrzFormat, type ParsedMrz } from './mrz-parse.js';
import { PPOCR_NET, type LineNet, type PpLine } from './mrz-ppocr.js';
import {
  alignEvidence,
  correctReading,
  shiftedAgainst,
  stateFromColumns,
  fallbackConfidences,
  voteLines,
  type FieldConfidence,
  type FieldName,
  type MrzEngine,
} from './mrz-vote.js';

/** One OCR pass (one engine, one scale and contrast) over one candidate band, with its parse. */
export interface MrzReading {
  engine: MrzEngine;
  parsed: ParsedMrz | null;
  /** The MRZ lines after correction (what the parse read). */
  lines: string[];
  corrections: Correction[];
  /** Check-digit fields that several substitutions would have made valid (left as read). */
  ambiguous: string[];
  band: MrzBand;
  flipped: boolean;
  enhanced: boolean;
  ocrConfidence: number;
  /** Per-character OCR evidence aligned to `lines` (null where the OCR's own line does not hold that character). */
  evidence: (CharEvidence | null)[][];
  rawText: string;
  /** Tesseract lines with glyph boxes (for the print-consistency check); the PP-OCR reading has none. */
  ocrLines: OcrLine[];
  /** The deskewed band image that was read (kept for the tamper checks on the MRZ print). */
  crop: GrayImage;
  score: number;
}

export interface MrzSearch {
  best: MrzReading | null;
  bands: MrzBand[];
  attempts: number;
  /** Other passes that read the best reading's failing fields character for character (see failureAgreement). */
  failureAgreement: number;
  /** Whether one of those passes was made by the other OCR engine. */
  failureCrossEngine: boolean;
  /** Engines that ran on the band the reading came from. */
  engines: MrzEngine[];
  /** Per-field confidence of the accepted reading (empty when no reading passed every check). */
  fieldConfidence: FieldConfidence[];
  /** Check-digit fields read two different ways that both pass their check digit. */
  ambiguous: FieldName[];
  /** Readings of the accepted MRZ's check-digit lines by each engine (whole-line vote). */
  confirmedBy: MrzEngine[];
}

type Pass = { engine: MrzEngine; enhanced: boolean; lineHeightPx: number };

/** The time after which a search starts no further pass once two readings parsed (`timeBudgetMs`'s default). */
export const MRZ_TIME_BUDGET_MS = 3000;

/**
 * Reads the best-ranked bands with both OCR engines (tesseract legacy, several scales and contrasts, and
 * PP-OCRv4 when available) and accepts an MRZ by whole-line vote (mrz-vote.ts): a combination of lines
 * read whole by some pass, every check digit passing. Stops as soon as the check-digit lines of an accepted
 * MRZ were read identically by two readings from different engines (one engine when only one runs); else
 * spends the remaining passes and time budget looking for confirmation or a rival reading.
 */
export async function readMrz(
  gray: GrayImage,
  ocr: MrzOcr,
  options: {
    now: Date;
    maxAttempts?: number;
    timeBudgetMs?: number;
    /**
     * A hard stop (performance.now() time): past it no further pass starts, even one the budget would still allow
     * (the budget yields to a second parsed reading; noise parses too, at seconds a pass). After the first pass.
     */
    deadline?: number;
    /**
     * Told of every reading taken whose check digits all pass, with its band and orientation, while the search
     * goes on (a check starts reading the visual zone beside that band then; read-document.ts).
     */
    onValidReading?: (band: MrzBand, flipped: boolean, format: MrzFormat) => void;
  },
): Promise<MrzSearch> {
  // The engines start before the budget's clock does (tesseract's worker, the networks' sessions and the cell
  // reader's templates: about 2 s on a cold thread, nothing once started), so that the first check in a thread
  // has the same budget as every check after it. (Started lazily inside the first pass, the start-up counted
  // against the budget; on five hard real specimens at load 1 the cold and warm reads were the same, but on a
  // loaded machine a slower start could cut the first check's passes.)
  await ocr.init();
  const started = performance.now();
  const bands = await findMrzBands(gray);
  const maxAttempts = options.maxAttempts ?? 10;
  // Unreadable images are where OCR is slowest; past the budget the best reading so far is kept.
  const budget = options.timeBudgetMs ?? MRZ_TIME_BUDGET_MS;
  const usePp = ocr.hasSecondEngine();
  const useThird = usePp && ocr.thirdNet !== null;
  const engines: MrzEngine[] = usePp ? ['tesseract', 'ppocr', ...(useThird ? ['ocrb' as const] : [])] : ['tesseract'];
  let attempts = 0;
  let fallback: MrzReading | null = null;
  let fallbackSet: MrzReading[] = [];
  // Each pass sees the glyphs differently (engine, contrast, scale), so OCR slips rarely repeat across passes.
  const passes: Pass[] = [
    { engine: 'tesseract', enhanced: false, lineHeightPx: 34 },
    ...(usePp ? [{ engine: 'ppocr' as const, enhanced: false, lineHeightPx: 40 }] : []),
    ...(useThird ? [{ engine: 'ocrb' as const, enhanced: false, lineHeightPx: 40 }] : []),
    { engine: 'tesseract', enhanced: true, lineHeightPx: 34 },
    ...(usePp ? [{ engine: 'ppocr' as const, enhanced: false, lineHeightPx: 28 }] : []),
    ...(useThird ? [{ engine: 'ocrb' as const, enhanced: false, lineHeightPx: 28 }] : []),
    { engine: 'tesseract', enhanced: false, lineHeightPx: 26 },
    { engine: 'tesseract', enhanced: false, lineHeightPx: 44 },
  ];
  const over = (): boolean => attempts >= maxAttempts || (attempts > 0 && performance.now() - started > budget);
  const past = (): boolean => attempts > 0 && options.deadline !== undefined && performance.now() > options.deadline;
  const finish = async (readSet: MrzReading[], readVote: ReturnType<typeof voteLines>): Promise<MrzSearch> => {
    let set = readSet;
    let vote = readVote;
    if (!vote) {
      const unguessed = fallback ? withoutCheckDigitGuesses(fallback, options.now) : null;
      const repaired = unguessed ? statesFromColumns(unguessed, fallbackSet, options.now) : null;
      const best = repaired?.reading ?? unguessed;
      // Every field's support among the readings, as for an accepted MRZ; a state code spelt column by column
      // keeps its own (low: read whole by no reading).
      const spelt = repaired?.fieldConfidence ?? [];
      const fieldConfidence = best?.parsed
        ? fallbackConfidences([best, ...fallbackSet.filter((r) => r !== fallback)], best.parsed, best.ambiguous).map(
            (f) => spelt.find((x) => x.field === f.field) ?? f,
          )
        : spelt;
      return {
        best,
        bands,
        attempts,
        ...failureAgreement(unguessed, fallbackSet),
        engines,
        fieldConfidence,
        ambiguous: [],
        confirmedBy: [],
      };
    }
    // OCR-B H/M/N/W in the names, settled by their shape where the readings or PP-OCR's runner-up disagree.
    const glyphs = settleLookalikes(set, vote.parsed, options.now, ocr.secondNet.nameMinConfidence);
    if (glyphs.set !== set) {
      const again = voteLines(glyphs.set, options.now);
      if (again) {
        set = glyphs.set;
        vote = again;
      }
    }
    // Name letters the readings still disagree on, settled by the fixed-pitch cell reader where it is sure.
    const grid = await settleByGrid(set, vote.parsed, ocr, options.now);
    if (grid.resolved.size > 0) {
      const again = voteLines(grid.set, options.now);
      if (again) {
        set = grid.set;
        vote = again;
      }
    }
    const lead = set[vote.lead] as MrzReading;
    // Geometry, glyph boxes and crop come from a tesseract reading of the band when there is one.
    const geometry = set.find((r) => r.engine === 'tesseract' && r.flipped === lead.flipped) ?? lead;
    // A name letter the grid changed is a third opinion against the vote's: the name goes to review.
    // The third reader's network judges the names too, at its own limits: a name is reported only when both
    // networks that read it were sure.
    const witnessed = ocr.thirdNet ? nameDoubts(set, vote.parsed, glyphs, ocr.thirdNet.nameMinConfidence, 'ocrb') : [];
    const fieldConfidence = withNameDoubts(vote.fieldConfidence, set, vote.parsed, glyphs, ocr.secondNet.nameMinConfidence).map((f) =>
      (grid.fields.includes(f.field) || witnessed.includes(f.field)) && f.level !== 'low' ? { ...f, level: 'low' as const } : f,
    );
    const best: MrzReading = {
      ...geometry,
      parsed: vote.parsed,
      lines: vote.parsed.lines,
      corrections: lead.corrections,
      ambiguous: vote.ambiguous,
      score: scoreOf(vote.parsed, lead.ocrConfidence),
    };
    return {
      best,
      bands,
      attempts,
      // An accepted reading can still hold an impossible date under a valid check digit: its evidence is
      // the readings that read those lines identically.
      failureAgreement: Math.max(0, Math.min(...vote.lineSupport) - 1),
      failureCrossEngine: engines.every((e) => vote.confirmedBy.includes(e)),
      engines,
      fieldConfidence,
      ambiguous: vote.ambiguous,
      confirmedBy: vote.confirmedBy,
    };
  };
  for (const band of bands.slice(0, 3)) {
    if (over() || past()) break;
    const set: MrzReading[] = [];
    let marginY = 1;
    // Passes read one after another, as above; but while one engine reads, the next pass may already run on the
    // other engine's thread (tesseract has its worker, the networks onnxruntime's), so a check waits for the
    // slower of the two, not their sum. A prefetched reading is taken only for the same orientation and margins
    // it was started with, so the outcome is that of the passes in order; one that is never taken is wasted work.
    // Only network passes are started early: a tesseract pass costs several network passes, and the search
    // often stops (two engines agree) right after the network pass it would run beside.
    const ahead = new Map<Pass, { flipped: boolean; marginY: number; reading: Promise<MrzReading> }>();
    const prefetch = (flipped: boolean, next: Pass | undefined, beside: Pass): void => {
      if (!next || next.engine === 'tesseract' || next.engine === beside.engine || ahead.has(next)) return;
      const reading = readBand(gray, band, flipped, next, ocr, options.now, marginY);
      reading.catch(() => undefined); // a prefetch that is never taken fails nobody
      ahead.set(next, { flipped, marginY, reading });
    };
    const take = async (flipped: boolean, pass: Pass): Promise<MrzReading> => {
      attempts++;
      const early = ahead.get(pass);
      ahead.delete(pass);
      const reading = await (early && early.flipped === flipped && early.marginY === marginY
        ? early.reading
        : readBand(gray, band, flipped, pass, ocr, options.now, marginY));
      if (reading.parsed?.valid) options.onValidReading?.(band, reading.flipped, reading.parsed.format);
      if (!fallback || outranks(reading, fallback)) {
        fallback = reading;
        fallbackSet = set;
      }
      if (reading.parsed) set.push(reading);
      return reading;
    };
    const [first, ...rest] = passes as [Pass, ...Pass[]];
    prefetch(false, rest[0], first);
    let lead = await take(false, first);
    // Two 30-character lines are two lines of a TD1 whose third line did not fuse into the band (wide
    // letter spacing in the names); one MRZ-long line alone is one line of an MRZ whose other line(s) the
    // locator did not join to it (printed smaller or fainter, or further apart): read again with room for a
    // line above and below.
    if (!lead.parsed?.valid && linesMissing(lead.rawText) && !past()) {
      marginY = 2.6;
      const taller = await take(false, first);
      if (taller.score > lead.score) lead = taller;
      else marginY = 1;
    }
    // A poor upright read may be an upside-down document: settle the orientation before spending passes.
    // (Not for a pass that read nothing at all, as one cut short on noise does: turned, that reads nothing either.)
    if (!lead.parsed?.valid && (lead.ocrConfidence < 50 || validChecks(lead) === 0) && lead.rawText.trim() !== '' && !past()) {
      const turned = await take(true, first);
      // An unparsed reading says nothing about the orientation (its confidence is noise on an upside-down
      // or garbled band): turn only for a turned reading that parsed and beats the upright one. When neither
      // parsed, stay upright (the usual capture) and let PP-OCR look both ways below.
      if (turned.parsed && (!lead.parsed || turned.score > lead.score)) lead = turned;
    }
    let flipped = lead.flipped;
    const orientationOpen = !lead.parsed;
    let vote = voteLines(set, options.now);
    for (const [i, pass] of rest.entries()) {
      if (vote && confirmed(vote, engines)) return finish(set, vote);
      // Always allow a second pass: a failing check is only held against the document if it is reproduced.
      if ((over() && set.length >= 2) || past()) break;
      // Nothing MRZ-like from either engine: one PP-OCR look each way, then the next band. (When PP-OCR's
      // look parsed as an MRZ, the band is one: the remaining passes may still reach a reading that passes.)
      if (!lead.parsed && set.length === 0 && pass.engine === 'tesseract') break;
      prefetch(flipped, rest[i + 1], pass);
      const r = await take(flipped, pass);
      if (orientationOpen && set.length === 0 && pass.engine === 'ppocr') {
        const turned = await take(!flipped, pass);
        if (turned.parsed) flipped = turned.flipped;
      } else if (orientationOpen && r.parsed && set.length === 1) flipped = r.flipped;
      vote = voteLines(set, options.now);
    }
    if (vote) return finish(set, vote);
    // A band whose text read confidently is the MRZ even if its checks fail; other bands are other text.
    // (A band with no valid check digit at all, e.g. a QR code or guilloche, does not stop the search.)
    if (lead.ocrConfidence >= 50 && lead.parsed && set.some((r) => validChecks(r) > 0)) break;
  }
  return finish(fallbackSet, null);
}

/**
 * A reading that no vote accepted (its check digits fail), with a state code that exists put together
 * column by column from the readings of the same format where its own does not exist (stateFromColumns).
 * The document is not valid either way; the field read whole by no reading is reported `low`.
 */
export function statesFromColumns(
  reading: MrzReading,
  set: MrzReading[],
  now: Date,
): { reading: MrzReading; fieldConfidence: FieldConfidence[] } | null {
  const p = reading.parsed;
  if (!p) return null;
  // The reading first: stateFromColumns takes the line length from the first reading.
  const same = [reading, ...set.filter((r) => r !== reading && r.parsed?.format === p.format && r.lines.length === reading.lines.length)];
  const spans: [FieldName, number, number][] =
    p.format === 'TD1'
      ? [
          ['issuingState', 0, 2],
          ['nationality', 1, 15],
        ]
      : [
          ['issuingState', 0, 2],
          ['nationality', 1, 10],
        ];
  let lines = reading.lines;
  const changed: FieldName[] = [];
  for (const [field, line, start] of spans) {
    const current = lines[line]?.slice(start, start + 3) ?? '';
    if (current.length !== 3 || isKnownStateCode(current.replace(/<+$/, ''))) continue;
    // A code that most readings, of more than one engine, read whole as it stands is what the document prints,
    // known or not (set C's fictional Commonwealth card prints CMW: tesseract and PP-OCR read it so in 6 of 8
    // readings, and the OCR-B network's L, N and O in the other two spelt the existing OMN column by column).
    const readWhole = same.filter((r) => r.lines[line]?.slice(start, start + 3) === current);
    if (readWhole.length * 2 > same.length && new Set(readWhole.map((r) => r.engine)).size >= 2) continue;
    const code = stateFromColumns(same, line, start, current);
    if (!code) continue;
    lines = lines.map((l, i) => (i === line ? l.slice(0, start) + code + l.slice(start + 3) : l));
    changed.push(field);
  }
  if (changed.length === 0) return null;
  let parsed: ParsedMrz;
  try {
    parsed = parseMrz(lines, { now });
  } catch {
    return null;
  }
  const fieldConfidence = changed.map((field): FieldConfidence => ({
    field,
    level: 'low',
    agreement: 0,
    readings: 0,
    of: same.length,
    checked: false,
    rivals: [],
  }));
  return { reading: { ...reading, lines, parsed }, fieldConfidence };
}

/**
 * A reading that no vote accepted, without the substitutions its check digits steered (`check_digit`
 * corrections put back as the OCR read them). Such a substitution is made where the OCR was unsure and only
 * when one swap makes the digit agree; but in an MRZ whose other check digits fail, a printed digit is no
 * stronger evidence than the ones that fail (a specimen printed with wrong digits, or a misread elsewhere),
 * and a mod-10 digit agrees with a wrong swap often. Kept, the swap made a field the OCR read right look
 * check-valid with another value (set C's Spanish `AAA100001` reported `AAAT00001`, set A's Colombian
 * `000000012` reported `O00000012`, both printed with failing digits). The document is not valid either way;
 * the field now reports what was read, and its failing digit says so.
 */
export function withoutCheckDigitGuesses(reading: MrzReading, now: Date): MrzReading {
  const guesses = reading.corrections.filter((c) => c.reason === 'check_digit');
  if (guesses.length === 0 || !reading.parsed) return reading;
  const lines = reading.lines.map((l) => [...l]);
  for (const c of guesses) {
    const row = lines[c.line];
    if (row && row[c.column] === c.to) row[c.column] = c.from;
  }
  let parsed: ParsedMrz;
  try {
    parsed = parseMrz(
      lines.map((l) => l.join('')),
      { now },
    );
  } catch {
    return reading;
  }
  return { ...reading, parsed, lines: parsed.lines, corrections: reading.corrections.filter((c) => c.reason !== 'check_digit') };
}

/** Accepted, with the check-digit lines read identically by every engine (twice when only one engine runs). */
function confirmed(vote: NonNullable<ReturnType<typeof voteLines>>, engines: MrzEngine[]): boolean {
  if (vote.ambiguous.length > 0) return false;
  if (engines.length === 1) return Math.min(...vote.lineSupport) >= 2 || vote.fieldConfidence.every((f) => f.level !== 'low');
  return engines.every((e) => vote.confirmedBy.includes(e));
}

/**
 * Number of other passes whose failing checks cover exactly the same characters and check digits, and
 * whether one of them came from the other engine. A forged or misprinted MRZ reads the same way at every
 * scale and contrast and to both engines; an OCR slip usually does not.
 */
export function failureAgreement(
  best: MrzReading | null,
  readings: MrzReading[],
): { failureAgreement: number; failureCrossEngine: boolean } {
  const p = best?.parsed;
  const failing = p?.checks.filter((c) => !c.valid) ?? [];
  if (!best || !p || failing.length === 0) return { failureAgreement: 0, failureCrossEngine: false };
  const agreeing = readings.filter(
    (r) =>
      r !== best &&
      r.parsed?.format === p.format &&
      failing.every((f) => {
        const o = r.parsed?.checks.find((c) => c.field === f.field);
        return o !== undefined && o.data === f.data && o.digit === f.digit;
      }),
  );
  return { failureAgreement: agreeing.length, failureCrossEngine: agreeing.some((r) => r.engine !== best.engine) };
}

async function readBand(
  gray: GrayImage,
  band: MrzBand,
  flipped: boolean,
  pass: Pass,
  ocr: MrzOcr,
  now: Date,
  marginY = 1,
): Promise<MrzReading> {
  const crop = extractBand(gray, band, { flip: flipped, lineHeightPx: pass.lineHeightPx, marginY });
  if (pass.engine !== 'tesseract') return networkReading(await ocr.recogniseWith(pass.engine, crop), band, flipped, crop, now, pass.engine);
  const r = await ocr.recognise(crop, { enhance: pass.enhanced });
  const chars = r.lines.map((l) => l.symbols.map((s) => ({ ch: s.text, confidence: s.confidence })));
  return toReading(
    { engine: 'tesseract', enhanced: pass.enhanced, text: r.text, confidence: r.confidence, chars, ocrLines: r.lines },
    band,
    flipped,
    crop,
    now,
  );
}

/** A band crop's reading by a line network (the second engine or the third reader). */
function networkReading(
  r: { text: string; confidence: number; ppLines: PpLine[] },
  band: MrzBand,
  flipped: boolean,
  crop: GrayImage,
  now: Date,
  engine: NetEngine,
): MrzReading {
  const chars = r.ppLines.map((l) => l.chars.map((c) => ({ ch: c.ch, confidence: c.p * 100, alt: c.alt })));
  return toReading({ engine, enhanced: false, text: r.text, confidence: r.confidence, chars, ocrLines: [] }, band, flipped, crop, now);
}

function toReading(
  read: {
    engine: MrzEngine;
    enhanced: boolean;
    text: string;
    confidence: number;
    chars: { ch: string; confidence: number; alt?: string }[][];
    ocrLines: OcrLine[];
  },
  band: MrzBand,
  flipped: boolean,
  crop: GrayImage,
  now: Date,
): MrzReading {
  const { text, confidence, chars, ocrLines } = read;
  let lines = normaliseOcrLines(text);
  const evidence = chars.map((c) => ({ chars: c }));
  let corrected = lines.length >= 1 ? correctReading(lines, alignEvidence(lines, evidence), now) : null;
  // An over-long line may have been cut in the wrong place: other cuts, kept only if they pass more checks.
  for (const variant of corrected?.parsed.valid ? [] : lineCutVariants(text)) {
    const alt = correctReading(variant, alignEvidence(variant, evidence), now);
    if (alt && scoreOf(alt.parsed, 0) > scoreOf(corrected?.parsed ?? null, 0)) {
      corrected = alt;
      lines = variant;
    }
  }
  const parsed = corrected?.parsed ?? null;
  return {
    engine: read.engine,
    parsed,
    lines: parsed?.lines ?? lines,
    corrections: corrected?.corrections ?? [],
    ambiguous: corrected?.ambiguous ?? [],
    band,
    flipped,
    enhanced: read.enhanced,
    ocrConfidence: confidence,
    evidence: alignEvidence(parsed?.lines ?? lines, evidence),
    rawText: text,
    ocrLines,
    crop,
    score: scoreOf(parsed, confidence),
  };
}

/**
 * PP-OCR probability (0-100) under which a name letter is not taken as read, and the higher one for the
 * OCR-B look-alikes H/M/N/W read as one another. Names carry no check digit, and both engines can misread a
 * letter the same way (SPECIMEN read as SPECIHEN by both): a letter the network itself was unsure of, in
 * every PP-OCR reading of the name, leaves the name to a reviewer. Tuned on the even half of set B only
 * (bench/document-mrz-real.ts, MRZ_LINES_PART=even); the odd half was held out then.
 */
export const NAME_LETTER_MIN_CONFIDENCE = PPOCR_NET.nameMinConfidence.letter;
export const NAME_LOOKALIKE_MIN_CONFIDENCE = PPOCR_NET.nameMinConfidence.lookalike;
/** The second engine's name limits (LineNet.nameMinConfidence); PP-OCR's by default. */
export type NameLimits = LineNet['nameMinConfidence'];
const LOOKALIKES = 'HMNW';
/**
 * PP-OCR probability (0-100) from which its letter (or runner-up) outside H/M/N/W at a names column counts as
 * a reading of another letter: below it the network had no idea (a shifted or smudged glyph), and the column
 * is still judged by the glyph shape (settleLookalikes). Set before the first measurement, not tuned.
 */
export const FOREIGN_LETTER_MIN_CONFIDENCE = 50;

/**
 * The vote's per-field confidence with surname/givenNames lowered to `low` where the PP-OCR evidence puts
 * the reported name in doubt (see nameDoubts).
 */
export function withNameDoubts(
  fc: FieldConfidence[],
  set: MrzReading[],
  parsed: ParsedMrz,
  glyphs: { resolved: ReadonlyMap<number, Lookalike>; contested: readonly number[] } = { resolved: new Map(), contested: [] },
  limits: NameLimits = PPOCR_NET.nameMinConfidence,
): FieldConfidence[] {
  const doubts = nameDoubts(set, parsed, glyphs, limits);
  if (doubts.length === 0) return fc;
  return fc.map((f) => (doubts.includes(f.field) && f.level !== 'low' ? { ...f, level: 'low' } : f));
}

/**
 * Names in doubt: (a) a letter that every PP-OCR reading of the reported names line was unsure of (below
 * `limits.letter`, or below `limits.lookalike` when its runner-up is a look-alike: the second engine's own,
 * LineNet.nameMinConfidence, PP-OCR's NAME_LETTER_MIN_CONFIDENCE and NAME_LOOKALIKE_MIN_CONFIDENCE by default;
 * a digit runner-up does not count);
 * (b) PP-OCR read the MRZ but none of its readings read the reported names line, and one read the name
 * differently (the name rests on tesseract alone against the other engine);
 * (c) a look-alike (H/M/N/W) that every reading read one way while its glyph's shape says another letter
 * (settleLookalikes' `contested`);
 * (d) the mirror of (b): no tesseract reading read the reported names line, and one read a name differently.
 * A column the shape test settled (`resolved`) is not exempt from (a).
 */
export function nameDoubts(
  set: MrzReading[],
  parsed: ParsedMrz,
  glyphs: { resolved: ReadonlyMap<number, Lookalike>; contested: readonly number[] } = { resolved: new Map(), contested: [] },
  limits: NameLimits = PPOCR_NET.nameMinConfidence,
  engine: MrzEngine = 'ppocr',
): FieldName[] {
  const { line: lineIdx, start } = namesSpan(parsed.format);
  const line = parsed.lines[lineIdx] ?? '';
  // PP-OCR reads the chevron as K now and then (mrz-vote.ts takes tesseract's filler there).
  const sameLine = (l: string | undefined): boolean =>
    l !== undefined &&
    l.length === line.length &&
    l.split('').every((ch, c) => ch === line.charAt(c) || (ch === 'K' && line.charAt(c) === '<'));
  const pp = set.filter((r) => r.engine === engine && r.parsed?.format === parsed.format);
  const witnesses = pp.filter((r) => sameLine(r.lines[lineIdx]));
  const out = new Set<FieldName>();
  const split = line.indexOf('<<', start);
  const fieldAt = (c: number): FieldName => (split < 0 || c < split ? 'surname' : 'givenNames');
  // (c) A look-alike every reading read one way while its glyph's shape says another letter.
  for (const c of glyphs.contested) out.add(fieldAt(c));
  // (d) No tesseract reading read the reported names line and one read a name otherwise: the name rests on the
  // network alone (the mirror of (b)).
  const tess = set.filter((r) => r.engine === 'tesseract' && r.parsed?.format === parsed.format);
  if (tess.length > 0 && !tess.some((r) => sameLine(r.lines[lineIdx])))
    for (const f of ['surname', 'givenNames'] as const)
      if (tess.some((r) => r.parsed?.fields.documentType !== 'other' && r.parsed?.fields[f] !== parsed.fields[f])) out.add(f);
  if (witnesses.length === 0) {
    for (const f of ['surname', 'givenNames'] as const)
      if (pp.some((r) => r.parsed?.fields.documentType !== 'other' && r.parsed?.fields[f] !== parsed.fields[f])) out.add(f);
    return [...out];
  }
  for (let c = start; c < line.length; c++) {
    const ch = line.charAt(c);
    // A look-alike the glyph shape settled (settleLookalikes) stays in doubt when PP-OCR was unsure of it:
    // the shape test answered wrongly on 6 of 355 held-out glyphs (2 of them an N read as M), and no check
    // digit covers the names, so a settled letter improves the reading but never makes a name valid alone.
    if (!/[A-Z]/.test(ch)) continue;
    let best: number | null = null;
    for (const w of witnesses) {
      const e = w.evidence[lineIdx]?.[c];
      // A digit runner-up is no rival in a name (names hold no digits; O/0 and I/1 are settled by field type).
      if (!e || (e.alt !== undefined && /^[0-9]$/.test(e.alt))) continue;
      const lookalike = LOOKALIKES.includes(ch) && e.alt !== undefined && LOOKALIKES.includes(e.alt);
      // A look-alike runner-up counts as if the network were less sure by the difference of the thresholds.
      best = Math.max(best ?? 0, e.confidence - (lookalike ? limits.lookalike - limits.letter : 0));
    }
    if (best !== null && best < limits.letter) out.add(fieldAt(c));
  }
  return [...out];
}

/** Share of a glyph box's height added around it before the shape test (the test keeps the glyph's own ink). */
const GLYPH_PAD = 0.15;

/**
 * OCR-B H, M, N and W in the names line settled by their shape (mrz-glyph.ts), where the readings disagree
 * among these letters or PP-OCR's runner-up is one of them. At such a column every tesseract reading's glyph
 * box is cut from its own band crop and tested; the column is settled when the glyphs that the test could
 * judge (at least half of them) all say the same letter, and that letter is one some reading or runner-up
 * offered. A column where a reading or runner-up offers any other letter (A, K, E...) is not touched: the
 * test knows only these four shapes. Settled letters are written into every reading's names line (only over
 * one of the four letters) and the readings are parsed again; check digits do not cover the names line, so
 * no check changes. Columns the test could not settle are left to the name guard (nameDoubts).
 */
export function settleLookalikes(
  set: MrzReading[],
  parsed: ParsedMrz,
  now: Date,
  limits: NameLimits = PPOCR_NET.nameMinConfidence,
): { set: MrzReading[]; resolved: Map<number, Lookalike>; contested: number[] } {
  const resolved = new Map<number, Lookalike>();
  const contested: number[] = [];
  const { line: nl, start } = namesSpan(parsed.format);
  const width = parsed.lines[nl]?.length ?? 0;
  // Only tesseract's and PP-OCR's readings judge a column: a third reader (our OCR-B network) is sure of an M where
  // every tesseract pass reads M too, and its letter there turned a shape that contradicted them into one more vote.
  // Nor does a reading whose names line is shifted against the reported one (a letter dropped or added): its
  // letter at a column is a neighbour's, and a sure foreign one there stopped the shape test (NLD specimen of set
  // C: a tesseract pass that had lost letters offered U at the M of MEULENDIJK).
  const same = set.filter(
    (r) =>
      r.engine !== 'ocrb' &&
      r.parsed?.format === parsed.format &&
      r.lines[nl]?.length === width &&
      !shiftedAgainst(r.lines[nl] ?? '', parsed.lines[nl] ?? ''),
  );
  const isLook = (ch: string | undefined): ch is Lookalike => ch !== undefined && ch !== '' && LOOKALIKE_LETTERS.includes(ch as Lookalike);
  // Glyph boxes of each tesseract reading's names line, by column.
  const boxes = same
    .filter((r) => r.engine === 'tesseract')
    .map((r) => {
      const line = r.lines[nl] ?? '';
      let best: { syms: OcrLine['symbols']; hits: number } | null = null;
      for (const o of r.ocrLines) {
        const syms = o.symbols.filter((x) => /^[A-Z0-9<]$/.test(x.text));
        let hits = 0;
        for (let c = 0; c < line.length; c++) if (syms[c]?.text === line.charAt(c)) hits++;
        if (!best || hits > best.hits) best = { syms, hits };
      }
      return best && best.hits >= line.length * 0.8 ? { r, syms: best.syms } : null;
    })
    .filter((b): b is { r: MrzReading; syms: OcrLine['symbols'] } => b !== null);
  if (boxes.length === 0) return { set, resolved, contested };
  // Letters written from the shape where the readings disagree beyond the four look-alikes (see below).
  const overruled = new Map<number, Lookalike>();
  for (let c = start; c < width; c++) {
    const offered = new Set<string>();
    // A letter outside the four, read or offered by a reading that was at least half sure of it there:
    // the shape test cannot judge that column (it knows only H, M, N and W).
    let foreign = false;
    for (const r of same) {
      const ch = r.lines[nl]?.charAt(c) ?? '';
      if (/[A-Z]/.test(ch)) offered.add(ch);
      // PP-OCR's runner-up is an offer where the network was not sure of its letter (as in nameDoubts).
      const e = r.engine === 'ppocr' ? r.evidence[nl]?.[c] : null;
      const alt = e?.alt !== undefined && /[A-Z]/.test(e.alt) && e.confidence < limits.lookalike ? e.alt : null;
      if (alt) offered.add(alt);
      const sure = r.engine !== 'ppocr' || (e?.confidence ?? 100) >= FOREIGN_LETTER_MIN_CONFIDENCE;
      if (sure && [/[A-Z]/.test(ch) ? ch : null, alt].some((x) => x !== null && !isLook(x))) foreign = true;
    }
    const looks = [...offered].filter(isLook);
    // One look-alike read by every reading, no runner-up: examined only to catch a shape that contradicts it.
    const unanimous = looks.length === 1 && offered.size === 1;
    const amongLooks = !unanimous && looks.length >= 2 && looks.length === offered.size;
    // Every tesseract glyph taken for one of the four, the readings disagreeing, no sure letter outside them.
    const disputed = !unanimous && !foreign && boxes.every(({ r }) => isLook(r.lines[nl]?.charAt(c)));
    if (!unanimous && !amongLooks && !disputed) continue;
    const verdicts: (Lookalike | null)[] = [];
    for (const { r, syms } of boxes) {
      const sym = syms[c];
      if (!sym || sym.text !== r.lines[nl]?.charAt(c)) continue;
      const cell = cutGlyph(r.crop, sym);
      const f = cell ? glyphFeatures(cell.img, cell.box) : null;
      verdicts.push(f ? classifyLookalike(f) : null);
    }
    const decided = verdicts.filter((v): v is Lookalike => v !== null);
    const letter = decided[0];
    if (!letter || decided.some((v) => v !== letter) || decided.length * 2 < verdicts.length) continue;
    // The shape says another letter than every reading: not corrected on the shape alone, left to review.
    if (unanimous && !offered.has(letter)) contested.push(c);
    else if (amongLooks && offered.has(letter)) resolved.set(c, letter);
    // Readings that disagree (a look-alike no reading offered, or a letter outside the four that its reading
    // was unsure of): the shape's letter is written over the look-alikes read there, and the name goes to
    // review whatever the readings say (a shape alone never makes a name valid).
    else if (disputed && boxes.some(({ r }) => r.lines[nl]?.charAt(c) !== letter)) {
      overruled.set(c, letter);
      contested.push(c);
    }
  }
  if (resolved.size === 0 && overruled.size === 0) return { set, resolved, contested };
  const out = writeNamesLine(set, same, nl, (ch, c) => (isLook(ch) ? (resolved.get(c) ?? overruled.get(c)) : undefined), now);
  return { set: out, resolved, contested };
}

/** A glyph box with a margin, cut from a band crop, and the box's place inside the cut. */
function cutGlyph(
  crop: GrayImage,
  s: { x0: number; y0: number; x1: number; y1: number },
): { img: GrayImage; box: { x0: number; y0: number; x1: number; y1: number } } | null {
  const pad = Math.round((s.y1 - s.y0) * GLYPH_PAD);
  const x0 = Math.max(0, s.x0 - pad);
  const x1 = Math.min(crop.width, s.x1 + pad);
  const y0 = Math.max(0, s.y0 - pad);
  const y1 = Math.min(crop.height, s.y1 + pad);
  const w = x1 - x0;
  const h = y1 - y0;
  if (w <= 0 || h <= 0) return null;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) data.set(crop.data.subarray((y0 + y) * crop.width + x0, (y0 + y) * crop.width + x1), y * w);
  return { img: { data, width: w, height: h }, box: { x0: s.x0 - x0, y0: s.y0 - y0, x1: s.x1 - x0, y1: s.y1 - y0 } };
}

/**
 * Whether `a` is a better reading to fall back on than `b`: by score, except that a reading that parsed as
 * an MRZ with at least two valid check digits beats one that did not parse at all (a garbled tesseract pass
 * at low confidence otherwise outscored a nearly right PP-OCR reading whose one failing check cost points).
 */
export function outranks(a: MrzReading, b: MrzReading): boolean {
  const solid = (r: MrzReading): boolean => validChecks(r) >= 2;
  if (solid(a) && !b.parsed) return true;
  if (solid(b) && !a.parsed) return false;
  return a.score > b.score;
}

/**
 * Whether a band's reading looks like part of an MRZ whose other lines lie outside the band: two lines of
 * TD1 length (27-33 characters), or a single line of MRZ length (28-46: TD1 30, TD2/MRV-B 36, TD3/MRV-A 44,
 * give or take a dropped or added character). Other text (fewer than 20 MRZ characters a line) is ignored.
 */
export function linesMissing(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/[^A-Z0-9<]/g, ''))
    .filter((l) => l.length >= 20);
  if (lines.length === 1) return (lines[0]?.length ?? 0) >= 28 && (lines[0]?.length ?? 0) <= 46;
  return lines.length === 2 && lines.every((l) => l.length >= 27 && l.length <= 33);
}

function validChecks(r: MrzReading): number {
  return r.parsed?.checks.filter((c) => c.valid).length ?? 0;
}

function scoreOf(parsed: ParsedMrz | null, confidence: number): number {
  if (!parsed) return confidence / 100;
  const validChecks = parsed.checks.filter((c) => c.valid).length;
  return (parsed.valid ? 100 : 0) + validChecks * 10 - parsed.problems.length * 3 + confidence / 100;
}
