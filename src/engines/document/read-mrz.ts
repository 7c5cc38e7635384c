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

export interface MrzSearch { best: MrzReading | null; bands: MrzBand[]; attempts: number }

/**
 * Tries the best-ranked bands, each upright and then turned 180 degrees (a document photographed upside
 * down yields the same blobs), and keeps the reading with the most valid check digits. Stops at the first
 * fully valid reading, so a clean capture costs one OCR pass.
 */
export async function readMrz(gray: GrayImage, ocr: MrzOcr, options: { now: Date; maxAttempts?: number; timeBudgetMs?: number }): Promise<MrzSearch> {
  const started = performance.now();
  const bands = await findMrzBands(gray);
  const maxAttempts = options.maxAttempts ?? 10;
  // Unreadable images are where OCR is slowest; past the budget the best reading so far is kept.
  const budget = options.timeBudgetMs ?? 3000;
  let best: MrzReading | null = null;
  let attempts = 0;
  // Each pass sees the glyphs differently (contrast, scale), so OCR slips rarely repeat across passes.
  const passes: { enhanced: boolean; lineHeightPx: number }[] = [
    { enhanced: false, lineHeightPx: 34 }, { enhanced: true, lineHeightPx: 34 }, { enhanced: false, lineHeightPx: 26 }, { enhanced: false, lineHeightPx: 44 },
  ];
  for (const band of bands.slice(0, 3)) {
    for (const flipped of [false, true]) {
      let upright = false;
      const readings: MrzReading[] = [];
      for (const pass of passes) {
        if (attempts >= maxAttempts || (attempts > 0 && performance.now() - started > budget)) return { best, bands, attempts };
        attempts++;
        const reading = await readBand(gray, band, flipped, pass.enhanced, pass.lineHeightPx, ocr, options.now);
        if (!best || reading.score > best.score) best = reading;
        if (reading.parsed?.valid) return { best, bands, attempts };
        // Nothing MRZ-like at all: no other pass over this orientation is worth it.
        if (!reading.parsed) break;
        readings.push(reading);
        const merged = mergeAll(readings, options.now);
        if (merged) return { best: merged, bands, attempts };
        if (reading.ocrConfidence >= 50) upright = true;
      }
      // Text read with decent confidence is the right way up even if some check fails; skip the flip.
      if (upright) break;
    }
  }
  return { best, bands, attempts };
}

function mergeAll(readings: MrzReading[], now: Date): MrzReading | null {
  const first = readings[0];
  if (!first?.parsed || readings.length < 2) return null;
  const merged = mergeReadings(readings.map((r) => r.parsed).filter((p): p is ParsedMrz => p !== null), now);
  if (!merged) return null;
  return { ...first, parsed: merged, corrections: readings.flatMap((r) => r.corrections), score: scoreOf(merged, first.ocrConfidence) };
}

async function readBand(gray: GrayImage, band: MrzBand, flipped: boolean, enhanced: boolean, lineHeightPx: number, ocr: MrzOcr, now: Date): Promise<MrzReading> {
  const crop = extractBand(gray, band, { flip: flipped, lineHeightPx });
  const result = await ocr.recognise(crop, { enhance: enhanced });
  const lines = normaliseOcrLines(result.text);
  const corrected = lines.length >= 1 ? safeCorrect(lines, now) : null;
  const parsed = corrected?.parsed ?? null;
  return {
    parsed, corrections: corrected?.corrections ?? [], band, flipped, enhanced, ocrConfidence: result.confidence,
    rawText: result.text, ocrLines: result.lines, crop, score: scoreOf(parsed, result.confidence),
  };
}

function safeCorrect(lines: string[], now: Date): ReturnType<typeof correctMrz> {
  try {
    return correctMrz(lines, now);
  } catch {
    return null;
  }
}

function scoreOf(parsed: ParsedMrz | null, confidence: number): number {
  if (!parsed) return confidence / 100;
  const validChecks = parsed.checks.filter((c) => c.valid).length;
  return (parsed.valid ? 100 : 0) + validChecks * 10 - parsed.problems.length * 3 + confidence / 100;
}
