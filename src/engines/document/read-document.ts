import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import type { ModelInfo } from '../signal.js';
import { BARCODE_MODEL, parseAamva, readPdf417, type AamvaFields } from './aamva.js';
import { decide } from './decide.js';
import { decodeImage, toGray, type DecodedImage } from './image-input.js';
import { cropPortraitFromBand, documentQuad } from './layout.js';
import { extractBand, type MrzBand } from './locate.js';
import { MrzOcr, MRZ_OCR_MODEL } from './mrz-ocr.js';
import type { MrzFormat, ParsedMrz } from './mrz-parse.js';
import { measureScreenMoire } from './moire.js';
import { findDocumentOutline, reconcileOutline, warpPage, type DocumentOutline, type ReconciledOutline } from './outline.js';
import { assessQuality } from './quality.js';
import { MRZ_TIME_BUDGET_MS, readMrz, type MrzReading, type MrzSearch } from './read-mrz.js';
import type { FieldConfidence } from './mrz-vote.js';
import type { GrayImage } from './image-ops.js';
import { assessTamper } from './tamper.js';
import { compareVisualZoneText, readVisualZone, withVisualZoneNames, type VisualZoneText, type VizComparison } from './viz.js';
import type { DocumentFields, DocumentResult, ReadDocumentOptions } from './types.js';

/**
 * The document check: decode (with limits and EXIF orientation), find and read the MRZ, fall back to an
 * AAMVA PDF417 barcode, measure capture quality and tamper hints, and decide passed / failed / needs_review.
 * Throws DocumentInputError for inputs that are not acceptable images; every other outcome is a result.
 */

const ENGINE_MODEL: ModelInfo = { name: 'verity-document-engine', version: '1.0.0' };
const VIZ_OCR_MODEL: ModelInfo = { name: 'tesseract.js-lstm-eng', version: '7.0.0/4.0.0' };

let sharedOcr: MrzOcr | null = null;

/** The engine's shared OCR worker; start it at boot so the first check does not pay the ~1 s start-up. */
export async function initDocumentEngine(): Promise<void> {
  sharedOcr ??= new MrzOcr();
  await sharedOcr.init({ text: true });
}

/** Stops the shared OCR worker (graceful shutdown, end of tests). */
export async function shutdownDocumentEngine(): Promise<void> {
  const ocr = sharedOcr;
  sharedOcr = null;
  if (ocr) await ocr.terminate();
}

/** A visual zone's reading started during the MRZ search, and what it was started for. */
interface EarlyZone {
  gray: GrayImage;
  band: MrzBand;
  flipped: boolean;
  format: MrzFormat;
  text: Promise<VisualZoneText | null>;
}

export async function readDocument(input: Buffer, options: ReadDocumentOptions = {}): Promise<DocumentResult> {
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const lap = (name: string, since: number): number => {
    const now = performance.now();
    timings[name] = Math.round((now - since) * 10) / 10;
    return now;
  };
  const now = options.now ?? new Date();
  const decoded = await decodeImage(input, options.limits);
  let t = lap('decode', t0);
  const ocr = options.ocr ?? (sharedOcr ??= new MrzOcr());
  // The visual zone is read by its own OCR worker thread (tesseract's LSTM reader), which the MRZ search leaves idle:
  // its reading starts as soon as a reading whose check digits all pass has placed the band, while the search goes
  // on, and is used when the search ends on that same band, orientation and format (the zone's text depends on
  // nothing else). Otherwise it is read after the search, as before.
  const early: { zone: EarlyZone | null } = { zone: null };
  const onValidReading =
    options.compareVisualZone === false
      ? undefined
      : (g: GrayImage, band: MrzBand, flipped: boolean, format: MrzFormat): void => {
          if (early.zone) return;
          const text = readVisualZone(g, band, flipped, format, ocr);
          text.catch(() => undefined); // awaited below when used; an unused early reading fails nobody
          early.zone = { gray: g, band, flipped, format, text };
        };
  const { img, gray, search } = await searchMrz(decoded, ocr, now, options.mrzTimeBudgetMs, onValidReading);
  const reading = search.best?.parsed ? search.best : null;
  const mrz = reading?.parsed ?? null;
  t = lap('mrz', t);
  // The visual zone is compared while this thread measures the outline, quality and tamper hints below (a valid MRZ
  // is read from the MRZ, never from the barcode, so its fields are known now).
  const vizRun =
    options.compareVisualZone !== false && reading && mrz?.valid
      ? (async () => {
          const e = early.zone;
          const same = e && e.gray === gray && e.band === reading.band && e.flipped === reading.flipped && e.format === mrz.format;
          const text = same ? e.text : readVisualZone(gray, reading.band, reading.flipped, mrz.format, ocr);
          return compareVisualZoneText(await text, fieldsFromMrz(mrz));
        })()
      : null;
  vizRun?.catch(() => undefined); // awaited below; a failure there is the check's

  // Page outline from the edges, cross-checked with the MRZ geometry (outline.ts).
  const mrzQuad = reading && mrz ? documentQuad(reading.band, reading.flipped, mrz.format) : null;
  const outline = reconcileOutline(mrzQuad, findDocumentOutline(gray));
  t = lap('outline', t);

  let barcode: AamvaFields | null = null;
  const wantBarcode = options.readBarcode === true || (options.readBarcode !== false && !mrz?.valid);
  if (wantBarcode) {
    barcode = await readBarcode(img, outline.edge);
    t = lap('barcode', t);
  }
  // A valid MRZ is the stronger source (check digits); the barcode fills in when the MRZ is missing or broken.
  const useBarcode = barcode !== null && !mrz?.valid;
  const fields = useBarcode && barcode ? fieldsFromBarcode(barcode) : mrz ? fieldsFromMrz(mrz) : null;

  const glyphHeight = charHeight(search.best, img);
  // Sharpness is measured at one fixed text height whatever pass produced the reading, so it stays comparable.
  const qualityCrop = search.best ? extractBand(gray, search.best.band, { flip: search.best.flipped, lineHeightPx: 34 }) : null;
  const quality = assessQuality({
    gray,
    mrzCrop: qualityCrop,
    mrzCharHeightPx: glyphHeight,
    documentQuad: outline.quad,
    outlineSource: outline.source,
    cutAtBorder: outline.cutAtBorder,
  });
  const moire = measureScreenMoire(img.rgb, img.width, img.height, outline.quad);
  const tamper = assessTamper(img.metadata, mrz?.valid && reading ? mrzOcrLines(reading, mrz) : null, glyphHeight, moire);
  t = lap('quality', t);

  let viz: VizComparison | null = null;
  if (vizRun) {
    viz = await vizRun;
    t = lap('viz', t); // what is left of the visual zone's reading after the stages it ran beside
  }
  const fieldConfidence = withVisualZoneNames(search.fieldConfidence, viz);
  const decision = decide({
    fields,
    mrz: useBarcode ? null : mrz,
    mrzConfidence: reading?.ocrConfidence ?? 0,
    mrzFailureAgreement: search.failureAgreement,
    mrzFailureCrossEngine: search.failureCrossEngine,
    mrzEngines: search.engines.length,
    mrzUncertainFields: useBarcode ? [] : uncertainFields(search.ambiguous, fieldConfidence),
    barcodeRead: barcode !== null,
    quality,
    tamper,
    viz,
    options,
    now,
  });
  let portrait: Buffer | null = null;
  if (options.cropPortrait !== false && reading && mrz) {
    portrait = await cropPortraitFromBand(img.rgb, img.width, img.height, reading.band, reading.flipped, mrz.format);
    lap('portrait', t);
  } else if (options.cropPortrait !== false && !mrz && outline.edge) {
    // No MRZ to locate zone V (licence or card front): the upright page, in which the face engine finds the face.
    portrait = await pageJpeg(img, outline.edge);
    t = lap('portrait', t);
  }
  lap('total', t0);
  return {
    verdict: decision.verdict,
    reasons: decision.reasons,
    fields,
    fieldSource: fields ? (useBarcode ? 'barcode' : 'mrz') : null,
    mrz:
      mrz && reading
        ? {
            format: mrz.format,
            lines: mrz.lines,
            valid: mrz.valid,
            checks: mrz.checks,
            corrections: reading.corrections,
            ocrConfidence: reading.ocrConfidence,
            fieldConfidence,
            engines: search.engines,
          }
        : null,
    barcode: barcode ? { symbology: 'PDF417', standard: 'AAMVA', fields: barcode } : null,
    portrait,
    image: { format: img.metadata.format, width: img.metadata.width, height: img.metadata.height, bytes: img.metadata.bytes },
    signals: [
      ...decision.signals,
      ...quality.signals,
      outlineSignal(outline),
      ...tamper.signals,
      ...(viz?.signals ?? []),
      ...searchSignals(search.best, search.attempts),
      ...(fieldConfidence.length > 0
        ? [
            {
              name: 'mrz_field_confidence',
              value: fieldConfidence.map((f) => `${f.field}:${f.level}`).join(','),
              passed: null,
              detail: `Per-field agreement of ${fieldConfidence[0]?.of ?? 0} reading(s) by ${search.engines.join(' + ')}; check-digit lines confirmed by ${search.confirmedBy.join(' + ') || 'one reading'}.`,
            },
          ]
        : []),
    ],
    model: [
      ENGINE_MODEL,
      MRZ_OCR_MODEL,
      ...(search.engines.includes('ppocr') ? [ocr.secondNet.model] : []),
      ...(search.engines.includes('ocrb') && ocr.thirdNet ? [ocr.thirdNet.model] : []),
      ...(viz ? [VIZ_OCR_MODEL] : []),
      ...(wantBarcode ? [BARCODE_MODEL] : []),
    ],
    timings,
  };
}

/**
 * The whole MRZ search (upright and turned) stops starting passes at this many time budgets: bounded by passes,
 * an image of noise (bands everywhere, each pass seconds of OCR) took 70 s at the 3 s budget, past the worker's
 * timeout, and a hostile upload held a worker that long.
 */
export const MRZ_SEARCH_CEILING = 3;

/**
 * The MRZ search, upright and, when nothing MRZ-like was read, on the image turned a quarter either way
 * (a sideways photo without EXIF orientation: the band locator measures any skew, but its closing kernels
 * are horizontal, so vertical lines of text do not fuse into bands). Everything downstream (geometry,
 * quality, portrait) then works on the turned image.
 */
async function searchMrz(
  decoded: DecodedImage,
  ocr: MrzOcr,
  now: Date,
  budgetMs: number | undefined,
  onValidReading?: (gray: GrayImage, band: MrzBand, flipped: boolean, format: MrzFormat) => void,
): Promise<{ img: DecodedImage; gray: GrayImage; search: MrzSearch }> {
  const budget = budgetMs ?? MRZ_TIME_BUDGET_MS;
  const deadline = performance.now() + MRZ_SEARCH_CEILING * budget;
  let img = decoded;
  let gray: GrayImage = { data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height };
  const told = (g: GrayImage) =>
    onValidReading ? (band: MrzBand, flipped: boolean, format: MrzFormat) => onValidReading(g, band, flipped, format) : undefined;
  let search = await readMrz(gray, ocr, { now, timeBudgetMs: budget, deadline, onValidReading: told(gray) });
  for (const angle of [90, 270] as const) {
    if (search.best?.parsed || performance.now() > deadline) break;
    const turned = await rotateDecoded(decoded, angle);
    const turnedGray = { data: toGray(turned.rgb, turned.width, turned.height), width: turned.width, height: turned.height };
    // Bounded by OCR passes rather than time, so that a loaded machine does not change the outcome.
    const again = await readMrz(turnedGray, ocr, {
      now,
      maxAttempts: 6,
      timeBudgetMs: Number.POSITIVE_INFINITY,
      deadline,
      onValidReading: told(turnedGray),
    });
    if (again.best?.parsed) {
      img = turned;
      gray = turnedGray;
      search = again;
    }
  }
  return { img, gray, search };
}

async function rotateDecoded(img: DecodedImage, angle: 90 | 270): Promise<DecodedImage> {
  const { data, info } = await sharp(img.rgb, { raw: { width: img.width, height: img.height, channels: 3 } })
    .rotate(angle)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { ...img, rgb: data, width: info.width, height: info.height };
}

/**
 * Portrait crop for the face engine: the ICAO zone V located from the MRZ (TD3 passports, TD2 and visas).
 * Null when there is no readable MRZ or the format keeps the portrait on the other side (TD1 cards).
 */
export async function cropPortrait(image: Buffer, options: Pick<ReadDocumentOptions, 'limits' | 'ocr'> = {}): Promise<Buffer | null> {
  const img = await decodeImage(image, options.limits);
  const gray = { data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height };
  const search = await readMrz(gray, options.ocr ?? (sharedOcr ??= new MrzOcr()), {
    now: new Date(),
    deadline: performance.now() + MRZ_SEARCH_CEILING * MRZ_TIME_BUDGET_MS,
  });
  const best = search.best;
  if (!best?.parsed) {
    // No MRZ: the upright page found from its edges, when the photo shows one (licence and card fronts).
    const edge = reconcileOutline(null, findDocumentOutline(gray)).edge;
    return edge ? pageJpeg(img, edge) : null;
  }
  return cropPortraitFromBand(img.rgb, img.width, img.height, best.band, best.flipped, best.parsed.format);
}

async function readBarcode(img: DecodedImage, page: DocumentOutline | null): Promise<AamvaFields | null> {
  const attempts: (() => Promise<string[]>)[] = [() => readPdf417(img.rgb, img.width, img.height)];
  // A keystoned or rotated barcode can defeat the reader: retry on the deskewed page when there is one.
  if (page) {
    attempts.push(() => {
      const p = warpPage(img.rgb, img.width, img.height, page.corners);
      return readPdf417(Buffer.from(p.data.buffer, p.data.byteOffset, p.data.length), p.width, p.height);
    });
  }
  for (const attempt of attempts) {
    for (const text of await attempt()) {
      try {
        return parseAamva(text);
      } catch {
        // A PDF417 that is not AAMVA (boarding pass, shipping label) is simply not a licence barcode.
      }
    }
  }
  return null;
}

async function pageJpeg(img: DecodedImage, page: DocumentOutline): Promise<Buffer> {
  const p = warpPage(img.rgb, img.width, img.height, page.corners);
  return sharp(Buffer.from(p.data.buffer, p.data.byteOffset, p.data.length), { raw: { width: p.width, height: p.height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

function outlineSignal(o: ReconciledOutline): DocumentResult['signals'][number] {
  const detail =
    o.source === null
      ? 'No page outline: no MRZ geometry and no fully visible page edges.'
      : `Page outline used for glare and framing: ${o.source === 'mrz' ? 'MRZ geometry' : o.source === 'edges' ? 'page edges' : 'page edges, confirmed by the MRZ geometry'}${o.agreement !== null ? `; edge and MRZ outlines differ by ${(o.agreement * 100).toFixed(1)} % of the diagonal` : ''}.`;
  return { name: 'document_outline', value: o.source, passed: null, detail };
}

function fieldsFromMrz(mrz: ParsedMrz): DocumentFields {
  const f = mrz.fields;
  return {
    documentType: f.documentType,
    documentCode: f.documentCode,
    issuingState: f.issuingState,
    documentNumber: f.documentNumber,
    surname: f.surname,
    givenNames: f.givenNames,
    nationality: f.nationality,
    birthDate: f.birthDate,
    sex: f.sex,
    expiryDate: f.expiryDate,
    ...(f.personalNumber ? { personalNumber: f.personalNumber } : {}),
  };
}

function fieldsFromBarcode(b: AamvaFields): DocumentFields {
  return {
    documentType: b.documentType,
    documentCode: b.documentType === 'id_card' ? 'ID' : 'DL',
    issuingState: b.country,
    documentNumber: b.documentNumber,
    surname: b.surname,
    givenNames: b.givenNames,
    nationality: '',
    birthDate: b.birthDate,
    sex: b.sex,
    expiryDate: b.expiryDate,
    jurisdiction: b.jurisdiction,
  };
}

/**
 * Fields of the accepted reading that are ambiguous, rest on an unconfirmed substitution, (names) were read
 * two ways, or were read whole by no reading (a state code put together column by column).
 */
function uncertainFields(ambiguous: string[], fieldConfidence: FieldConfidence[]): string[] {
  // Names have no check digit: engines that read them differently leave a reviewer to settle which is right.
  const low = fieldConfidence
    .filter((f) => f.level === 'low' && (f.checked || f.field === 'surname' || f.field === 'givenNames' || f.readings === 0))
    .map((f) => f.field);
  return [...new Set([...ambiguous, ...low])];
}

/** The OCR lines that are MRZ lines (the band crop can also hold a line of visual-zone text in another font). */
function mrzOcrLines(reading: MrzReading, mrz: ParsedMrz): MrzReading['ocrLines'] {
  const width = mrz.lines[0]?.length ?? 0;
  return reading.ocrLines.filter((l) => Math.abs(l.text.replace(/[^A-Z0-9<]/g, '').length - width) <= 3);
}

/** MRZ glyph height in original pixels: line height of the band, undone from the working-copy scale. */
function charHeight(best: MrzReading | null, img: DecodedImage): number | null {
  if (!best) return null;
  const band = best.band;
  const lineH = band.lineCount > 1 ? band.height - (band.lineCount - 1) * band.linePitch : band.height;
  // The blob includes a little blur and the closing's spread; 0.85 brings it back to glyph height.
  return (Math.max(lineH, (band.height / Math.max(1, band.lineCount)) * 0.6) * 0.85) / img.scale;
}

function searchSignals(best: MrzReading | null, attempts: number): DocumentResult['signals'] {
  return [
    {
      name: 'mrz_ocr_confidence',
      value: best ? Math.round(best.ocrConfidence) : null,
      passed: null,
      detail: `Tesseract mean confidence of the best of ${attempts} OCR attempt(s).`,
    },
    {
      name: 'mrz_ocr_corrections',
      value: best ? best.corrections.length : null,
      passed: null,
      detail: 'Characters changed by field-type and check-digit-guided correction.',
    },
  ];
}
