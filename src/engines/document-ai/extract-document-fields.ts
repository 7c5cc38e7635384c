import { signal, type CheckVerdict, type ModelInfo, type Signal } from '../signal.js';
import { extractText } from '../text/extract-text.js';
import type { OcrEngine } from '../text/ocr.js';
import type { InputLimits, TextDocument } from '../text/types.js';
import { validateFieldSpecs, type FieldSpec } from './field-spec.js';
import { locateField, type LocateMethod } from './locate.js';
import { analyseImageTampering, type ImageTamperOptions } from './tamper-image.js';
import { analysePdfTampering, type PdfTamperOptions } from './tamper-pdf.js';
import type { FieldType } from './value-types.js';
import { relativeBox, type PageBox } from './word-text.js';

export interface ExtractedField {
  name: string;
  type: FieldType;
  /** As printed; null when the field was not found. */
  value: string | null;
  /** ISO date, number, compact IBAN, E.164 phone, lower-case email, or whitespace-normalised text. */
  normalized: string | number | null;
  /** Whether the value passes its type's validation (IBAN check digits, real calendar date, ...). */
  valid: boolean;
  confidence: number;
  method: LocateMethod | null;
  page: number | null;
  /** In page units: PDF points or image pixels, origin top-left. */
  box: PageBox | null;
  /** The same box relative to the page (0..1). */
  relativeBox: PageBox | null;
}

export interface DocumentAiOptions {
  mime?: string;
  ocr?: OcrEngine;
  limits?: Partial<InputLimits>;
  /** Country used for national phone numbers and for reading 03/04/2026 (US is month-first). */
  country?: string;
  pdf?: PdfTamperOptions;
  image?: ImageTamperOptions;
  /** Skip tamper analysis (extraction only). */
  skipTampering?: boolean;
}

export interface DocumentAiResult {
  verdict: CheckVerdict;
  reasons: string[];
  fields: ExtractedField[];
  tampering: Signal[];
  textSource: TextDocument['source'];
  pageCount: number;
  model: ModelInfo;
  timings: { extractMs: number; fieldsMs: number; tamperMs: number; totalMs: number };
}

export const DOCUMENT_AI_MODEL: ModelInfo = { name: 'verity-document-ai', version: '1.0.0' };

const BASE_CONFIDENCE: Record<LocateMethod, number> = { region: 0.9, anchor: 0.92, pattern: 0.95, type_scan: 0.7 };

/** Extracts the caller's fields from text already read from the document. */
export function locateFields(
  doc: TextDocument,
  specs: readonly FieldSpec[],
  options: Pick<DocumentAiOptions, 'country'> = {},
): ExtractedField[] {
  validateFieldSpecs(specs);
  const locateOptions = { monthFirst: options.country?.toUpperCase() === 'US', defaultCountry: options.country?.toUpperCase() };
  return specs.map((spec) => {
    const type = spec.type ?? 'string';
    const found = locateField(doc.pages, spec, locateOptions);
    if (!found)
      return {
        name: spec.name,
        type,
        value: null,
        normalized: null,
        valid: false,
        confidence: 0,
        method: null,
        page: null,
        box: null,
        relativeBox: null,
      };
    const ocr = found.words.length ? found.words.reduce((s, w) => s + w.confidence, 0) / found.words.length : 0;
    const confidence = Math.round(BASE_CONFIDENCE[found.method] * ocr * (found.value.valid ? 1 : 0.5) * 1000) / 1000;
    const page = doc.pages[found.box.page - 1]!;
    return {
      name: spec.name,
      type,
      value: found.value.raw,
      normalized: found.value.normalized,
      valid: found.value.valid,
      confidence,
      method: found.method,
      page: found.box.page,
      box: found.box,
      relativeBox: relativeBox(found.box, page),
    };
  });
}

/**
 * The document-ai check: caller-defined fields with confidence and position, plus tampering
 * signals. Throws DocumentAiInputError for bad field specs and TextInputError for bad files.
 */
export async function extractDocumentFields(
  input: Buffer,
  specs: readonly FieldSpec[],
  options: DocumentAiOptions = {},
): Promise<DocumentAiResult> {
  validateFieldSpecs(specs);
  const t0 = performance.now();
  const doc = await extractText(input, options.mime, { ocr: options.ocr, limits: options.limits });
  const t1 = performance.now();
  const fields = locateFields(doc, specs, options);
  const t2 = performance.now();
  let tampering: Signal[] = [];
  if (!options.skipTampering) {
    tampering =
      doc.mediaType === 'application/pdf'
        ? await analysePdfTampering(input, options.pdf)
        : await analyseImageTampering(input, doc.mediaType, options.image);
  }
  tampering.push(signal('text_source', doc.source, null));
  const t3 = performance.now();

  const reasons: string[] = [];
  for (const t of tampering) if (t.passed === false) reasons.push(`tamper_${t.name}`);
  specs.forEach((s, i) => {
    const f = fields[i]!;
    if (s.required && f.value === null) reasons.push(`field_missing_${s.name}`);
    else if (f.value !== null && !f.valid) reasons.push(`field_invalid_${s.name}`);
  });
  // Tampering fails the check; missing or invalid fields ask a person to look.
  const verdict: CheckVerdict = reasons.some((r) => r.startsWith('tamper_')) ? 'failed' : reasons.length ? 'needs_review' : 'passed';
  const ms = (n: number): number => Math.round(n * 10) / 10;
  return {
    verdict,
    reasons,
    fields,
    tampering,
    textSource: doc.source,
    pageCount: doc.pages.length,
    model: DOCUMENT_AI_MODEL,
    timings: { extractMs: ms(t1 - t0), fieldsMs: ms(t2 - t1), tamperMs: ms(t3 - t2), totalMs: ms(t3 - t0) },
  };
}
