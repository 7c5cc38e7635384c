import { performance } from 'node:perf_hooks';
import type { GrayImage } from './image-ops.js';
import { extractBand, findMrzBands, type MrzBand } from './locate.js';
import { correctMrz, mergeReadings, normaliseOcrLines, type Correction } from './mrz-correct.js';
import type { MrzOcr, OcrLine } from './mrz-ocr.js';
import type { ParsedMrz } from './mrz-parse.js';

/** One OCR pass over one candidate band, with its parse. */
export interface MrzReading {
  parsed: ParsedMrz | null;
  corrections: Correction[];
  band: MrzBand;
  flipped: boolean;
  enhanced: boolean;
  ocrConfidence: number;
  rawText: string;
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
}

/**
 * Tries the best-ranked bands, each upright and then turned 180 degrees (a document photographed upside
 * down yields the same blobs), and keeps the reading with the most valid check digits. Stops at the first
 * fully valid reading, so a clean capture costs one OCR pass.
 */
export async function readMrz(
  gray: GrayImage,
  ocr: MrzOcr,
  options: { now: Date; maxAttempts?: number; timeBudgetMs?: number },
): Promise<MrzSearch> {
  const started = performance.now();
  const bands = await findMrzBands(gray);
  const maxAttempts = options.maxAttempts ?? 10;
  // Unreadable images are where OCR is slowest; past the budget the best reading so far is kept.
  const budget = options.timeBudgetMs ?? 3000;
  let best: MrzReading | null = null;
  let attempts = 0;
  const all: MrzReading[] = [];
  const done = (result: MrzReading | null): MrzSearch => ({
    best: result,
    bands,
    attempts,
    failureAgreement: result ? failureAgreement(result, all) : 0,
  });
  // Each pass sees the glyphs differently (contrast, scale), so OCR slips rarely repeat across passes.
  const passes: { enhanced: boolean; lineHeightPx: number }[] = [
    { enhanced: false, lineHeightPx: 34 },
    { enhanced: true, lineHeightPx: 34 },
    { enhanced: false, lineHeightPx: 26 },
    { enhanced: false, lineHeightPx: 44 },
  ];
  const over = (): boolean => attempts >= maxAttempts || (attempts > 0 && performance.now() - started > budget);
  for (const band of bands.slice(0, 3)) {
    if (over()) break;
    const take = async (flipped: boolean, pass: { enhanced: boolean; lineHeightPx: number }): Promise<MrzReading> => {
      attempts++;
      const reading = await readBand(gray, band, flipped, pass.enhanced, pass.lineHeightPx, ocr, options.now);
      if (!best || reading.score > best.score) best = reading;
      if (reading.parsed) all.push(reading);
      return reading;
    };
    const first = passes[0] as (typeof passes)[number];
    let lead = await take(false, first);
    if (lead.parsed?.valid) return done(lead);
    // A poor upright read may be an upside-down document: settle the orientation before spending passes.
    if (lead.ocrConfidence < 50 || validChecks(lead) === 0) {
      const turned = await take(true, first);
      if (turned.parsed?.valid) return done(turned);
      if (turned.score > lead.score) lead = turned;
    }
    // Nothing MRZ-like either way: try the next band.
    if (!lead.parsed) continue;
    const readings: MrzReading[] = [lead];
    for (const pass of passes.slice(1)) {
      // Always allow a second pass: a failing check is only held against the document if it is reproduced.
      if (over() && readings.length >= 2) break;
      const reading = await take(lead.flipped, pass);
      if (reading.parsed?.valid) return done(reading);
      if (!reading.parsed) continue;
      readings.push(reading);
      const merged = mergeAll(readings, options.now);
      if (merged) return done(merged);
    }
    // A band whose text read confidently is the MRZ even if its checks fail; other bands are other text.
    if (lead.ocrConfidence >= 50) break;
  }
  return done(best);
}

/**
 * Number of other passes whose failing checks cover exactly the same characters and check digits. A forged
 * or misprinted MRZ reads the same way at every scale and contrast; an OCR slip usually does not.
 */
export function failureAgreement(best: MrzReading, readings: MrzReading[]): number {
  const p = best.parsed;
  const failing = p?.checks.filter((c) => !c.valid) ?? [];
  if (!p || failing.length === 0) return 0;
  return readings.filter(
    (r) =>
      r !== best &&
      r.parsed?.format === p.format &&
      failing.every((f) => {
        const o = r.parsed?.checks.find((c) => c.field === f.field);
        return o !== undefined && o.data === f.data && o.digit === f.digit;
      }),
  ).length;
}

function mergeAll(readings: MrzReading[], now: Date): MrzReading | null {
  const first = readings[0];
  if (!first?.parsed || readings.length < 2) return null;
  const merged = mergeReadings(
    readings.map((r) => r.parsed).filter((p): p is ParsedMrz => p !== null),
    now,
  );
  if (!merged) return null;
  return { ...first, parsed: merged, corrections: readings.flatMap((r) => r.corrections), score: scoreOf(merged, first.ocrConfidence) };
}

async function readBand(
  gray: GrayImage,
  band: MrzBand,
  flipped: boolean,
  enhanced: boolean,
  lineHeightPx: number,
  ocr: MrzOcr,
  now: Date,
): Promise<MrzReading> {
  const crop = extractBand(gray, band, { flip: flipped, lineHeightPx });
  const result = await ocr.recognise(crop, { enhance: enhanced });
  const lines = normaliseOcrLines(result.text);
  const corrected = lines.length >= 1 ? safeCorrect(lines, now) : null;
  const parsed = corrected?.parsed ?? null;
  return {
    parsed,
    corrections: corrected?.corrections ?? [],
    band,
    flipped,
    enhanced,
    ocrConfidence: result.confidence,
    rawText: result.text,
    ocrLines: result.lines,
    crop,
    score: scoreOf(parsed, result.confidence),
  };
}

function safeCorrect(lines: string[], now: Date): ReturnType<typeof correctMrz> {
  try {
    return correctMrz(lines, now);
  } catch {
    return null;
  }
}

function validChecks(r: MrzReading): number {
  return r.parsed?.checks.filter((c) => c.valid).length ?? 0;
}

function scoreOf(parsed: ParsedMrz | null, confidence: number): number {
  if (!parsed) return confidence / 100;
  const validChecks = parsed.checks.filter((c) => c.valid).length;
  return (parsed.valid ? 100 : 0) + validChecks * 10 - parsed.problems.length * 3 + confidence / 100;
}
