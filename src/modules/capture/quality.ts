import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { DocumentInputError } from '../../engines/document/image-input.js';
import type { DocumentResult } from '../../engines/document/types.js';
import { DEFAULT_LIVENESS_THRESHOLDS, isFaceInputError, type FaceAnalysis } from '../../engines/face/index.js';
import { MIN_FACE_PX } from '../../engines/face/match-decision.js';
import { countryCode } from '../../engines/screening/countries.js';
import type { Environment } from '../../platform/context.js';
import { invalid } from '../../platform/errors.js';
import type { Resources } from '../../platform/resources.js';
import { DOCUMENT_READER, FACE_ENGINE, type DocumentSettings } from '../checks/index.js';
import { QUALITY_ISSUES, type Quality, type QualityIssueCode, type StepKind } from './schemas.js';
import type { DocumentType } from './steps.js';

/** Mean grey level (0–255) below which a photo is too dark to read; indoor photos sit around 100–140. */
export const TOO_DARK_MEAN = 50;

export interface QualityInput {
  kind: StepKind;
  data: Buffer;
  contentType: string;
  environment: Environment;
  accepted: { types: DocumentType[]; countries: string[] | null };
  settings: DocumentSettings;
  /** The process's engines (document reader, face engine). */
  resources: Resources;
}

/**
 * Guidance for one upload, from the real engines, outside any transaction. It tells the subject what
 * to retake (blur, glare, darkness, no document, wrong document, no face…), never a check result:
 * tamper and fraud signals are deliberately not reported to the person holding the document.
 * An image the engines cannot decode is 400 on `file`.
 */
export async function assessQuality(input: QualityInput): Promise<Quality> {
  const codes =
    input.kind === 'selfie'
      ? await selfieIssues(input)
      : input.kind === 'proof_of_address'
        ? await addressDocumentIssues(input)
        : await identityDocumentIssues(input);
  const unique = [...new Set(codes)];
  return { acceptable: unique.length === 0, issues: unique.map((code) => ({ code, message: QUALITY_ISSUES[code] })) };
}

const unreadableFile = (detail: string) =>
  invalid('file', `The file could not be read as an image (${detail}). Send a JPEG, PNG, WebP or HEIC photo.`);

async function identityDocumentIssues(input: QualityInput): Promise<QualityIssueCode[]> {
  let r: DocumentResult;
  try {
    r = await input.resources.get(DOCUMENT_READER).read(input.data, {
      expectedDocumentTypes: input.accepted.types,
      acceptSpecimens: input.environment === 'sandbox',
      limits: { maxBytes: input.settings.maxImageBytes, maxPixels: input.settings.maxPixels },
      mrzTimeBudgetMs: input.settings.mrzTimeBudgetMs,
      // Guidance needs the zone and the capture measures, not the portrait crop or the printed-zone OCR.
      compareVisualZone: false,
      cropPortrait: false,
    });
  } catch (err) {
    if (err instanceof DocumentInputError) throw unreadableFile(err.code);
    throw err;
  }
  const issues: QualityIssueCode[] = [];
  const reasons = new Set(r.reasons);
  const dark = (await meanGrey(input.data)) < TOO_DARK_MEAN;
  if (dark) issues.push('too_dark');
  // Low contrast in a dark photo also reads as blur; the darkness is what the subject should fix.
  if (!dark && (reasons.has('image_blurry') || reasons.has('low_resolution'))) issues.push('blurry');
  if (reasons.has('glare_detected')) issues.push('glare');
  // `unreadable` is the guidance when no cause is visible; a blurred, dark or glaring photo is
  // unreadable because of that cause, and naming the cause is what tells the person what to fix.
  const causeNamed = issues.length > 0;
  if (!causeNamed && (reasons.has('mrz_unreadable') || reasons.has('document_out_of_frame'))) issues.push('unreadable');
  if (reasons.has('document_type_not_accepted') || !countryAccepted(r, input)) issues.push('wrong_document');
  const zoneRead = r.mrz !== null || r.barcode !== null;
  if (!zoneRead && issues.length === 0 && (await mustCarryZone(input))) issues.push('no_document');
  return issues;
}

/**
 * Whether this side, without a machine-readable zone, means "no document here". A passport's or
 * visa's front always carries its MRZ; a card's front does not, so there the portrait decides (every
 * accepted document shows one on its front). The back carries the MRZ on ID cards, but not on every
 * driving licence, so it is only required when the journey takes no licences.
 */
async function mustCarryZone(input: QualityInput): Promise<boolean> {
  const types = input.accepted.types;
  if (input.kind === 'document_back') return types.includes('id_card') && types.every((t) => t !== 'driving_licence');
  if (types.every((t) => t === 'passport' || t === 'visa')) return true;
  try {
    return (await input.resources.get(FACE_ENGINE).analyze(input.data)).faces.length === 0;
  } catch (err) {
    if (isFaceInputError(err)) return false;
    throw err;
  }
}

function countryAccepted(r: DocumentResult, input: QualityInput): boolean {
  const accepted = input.accepted.countries;
  const state = r.fields?.issuingState;
  if (!accepted || !state) return true;
  if (state === 'UTO' && input.environment === 'sandbox') return true; // ICAO specimens, as the sandbox document check
  const alpha2 = state === 'D' ? 'DE' : countryCode(state);
  return alpha2 !== undefined && accepted.includes(alpha2);
}

async function selfieIssues(input: QualityInput): Promise<QualityIssueCode[]> {
  let a: FaceAnalysis;
  try {
    a = await input.resources.get(FACE_ENGINE).analyze(input.data);
  } catch (err) {
    if (isFaceInputError(err)) throw unreadableFile(err.reason);
    throw err;
  }
  const issues: QualityIssueCode[] = [];
  const face = a.faces[0];
  const dark = (await meanGrey(input.data, face?.box)) < TOO_DARK_MEAN;
  if (dark) issues.push('too_dark');
  if (!face) return [...issues, 'no_face'];
  if (a.faces.length > 1) issues.push('multiple_faces');
  if (face.sizePx < MIN_FACE_PX) issues.push('face_too_small');
  // The liveness check's own sharpness floor: a softer face would fail or be referred there.
  if (!dark && face.texture && face.texture.sharpness < DEFAULT_LIVENESS_THRESHOLDS.minSharpness) issues.push('blurry');
  return issues;
}

async function addressDocumentIssues(input: QualityInput): Promise<QualityIssueCode[]> {
  if (input.contentType === 'application/pdf') {
    let pages = 0;
    try {
      // pdf-lib recovers what it can from a damaged file; a PDF without a single page is unusable.
      pages = (
        await PDFDocument.load(input.data, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false })
      ).getPageCount();
    } catch {
      pages = 0;
    }
    if (pages === 0) throw invalid('file', 'The file could not be read as a PDF (no page found).');
    return [];
  }
  // sharp may lack an HEVC decoder for HEIC: no darkness guidance then; the check pipeline judges the file.
  if (input.contentType === 'image/heic') return [];
  let grey: number;
  try {
    grey = await meanGrey(input.data, undefined, true);
  } catch {
    throw unreadableFile('image_corrupt');
  }
  return grey < TOO_DARK_MEAN ? ['too_dark'] : [];
}

/**
 * Mean grey level of the image (or of a box in it, in upright pixels), on a small copy. An image sharp
 * cannot decode reads as mid-grey here unless `strict`: the engines have already judged it readable.
 */
async function meanGrey(data: Buffer, box?: [number, number, number, number], strict = false): Promise<number> {
  try {
    let img = sharp(data, { limitInputPixels: 100_000_000, failOn: 'error' }).rotate();
    if (box) {
      const { data: upright, info } = await img.png({ compressionLevel: 0 }).toBuffer({ resolveWithObject: true });
      const left = clamp(Math.round(box[0]), 0, info.width - 1);
      const top = clamp(Math.round(box[1]), 0, info.height - 1);
      const width = clamp(Math.round(box[2]), 1, info.width - left);
      const height = clamp(Math.round(box[3]), 1, info.height - top);
      img = sharp(upright).extract({ left, top, width, height });
    }
    const stats = await img.resize(256, 256, { fit: 'inside' }).greyscale().stats();
    return stats.channels[0]!.mean;
  } catch (err) {
    if (strict) throw err;
    return 128;
  }
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
