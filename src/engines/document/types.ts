import type { CheckVerdict, ModelInfo, Signal } from '../signal.js';
import type { AamvaFields } from './aamva.js';
import type { InputLimits } from './image-input.js';
import type { Correction } from './mrz-correct.js';
import type { MrzOcr } from './mrz-ocr.js';
import type { FieldConfidence, MrzEngine } from './mrz-vote.js';
import type { DocumentType, MrzCheck, MrzFields, MrzFormat } from './mrz-parse.js';

export type { DocumentType, MrzFormat, MrzCheck, Correction, AamvaFields, FieldConfidence, MrzEngine };

/**
 * Identity fields read from the document, whatever zone they came from (the MRZ's fields without its
 * raw optional data; for AAMVA barcodes documentCode is "DL"/"ID", issuingState USA or CAN, and the
 * jurisdiction is the state or province). Dates are ISO YYYY-MM-DD.
 */
export interface DocumentFields extends Omit<MrzFields, 'optionalData'> {
  jurisdiction?: string;
}

export interface MrzSummary {
  format: MrzFormat;
  lines: string[];
  /** Every check digit valid and every field well formed. */
  valid: boolean;
  checks: MrzCheck[];
  /** Characters the OCR post-correction changed, for reviewers. */
  corrections: Correction[];
  ocrConfidence: number;
  /** Per-field confidence of the reading (whole-line vote of OCR passes and engines; see docs/documents.md). */
  fieldConfidence: FieldConfidence[];
  /** OCR engines that read the MRZ. */
  engines: MrzEngine[];
}

export interface DocumentResult {
  verdict: CheckVerdict;
  /** Stable snake_case reason codes (see REASON_CODES), empty when passed. */
  reasons: string[];
  fields: DocumentFields | null;
  /** Which zone the fields came from. */
  fieldSource: 'mrz' | 'barcode' | null;
  mrz: MrzSummary | null;
  barcode: { symbology: 'PDF417'; standard: 'AAMVA'; fields: AamvaFields } | null;
  /** Upright JPEG crop of the ICAO portrait zone for face matching, when the layout allows it. */
  portrait: Buffer | null;
  image: { format: string; width: number; height: number; bytes: number };
  signals: Signal[];
  model: ModelInfo[];
  /** Milliseconds per stage (decode, mrz, barcode, quality, viz, portrait, total). */
  timings: Record<string, number>;
}

export interface ReadDocumentOptions {
  /** Minimum age in years on `now`; younger holders fail with `under_minimum_age`. */
  minimumAge?: number;
  /** ICAO alpha-3 codes of accepted issuing states; others fail with `issuing_country_not_allowed`. */
  allowedCountries?: string[];
  /** Accepted document types; others fail with `document_type_not_accepted`. */
  expectedDocumentTypes?: DocumentType[];
  /** Reference time for expiry and age (default: the current time). */
  now?: Date;
  /** Accept ICAO specimen documents (issuing state UTO). Off in production; tests and benches turn it on. */
  acceptSpecimens?: boolean;
  /** 'auto' (default) scans for a PDF417 only when no valid MRZ was read; true always; false never. */
  readBarcode?: boolean | 'auto';
  /** OCR the printed zone beside the portrait and compare it with the MRZ (default true; TD3, TD2, visas). */
  compareVisualZone?: boolean;
  /** Cut the portrait zone out for face matching (default true). */
  cropPortrait?: boolean;
  limits?: Partial<InputLimits>;
  /** Time after which no further MRZ OCR pass is started (default 3000 ms); bounds the cost of unreadable images. */
  mrzTimeBudgetMs?: number;
  /** OCR worker to use; the engine's shared worker when absent. */
  ocr?: MrzOcr;
}
