import type { DocumentResult } from '../../../engines/document/types.js';

const snake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** camelCase engine objects → snake_case API objects (one level; AAMVA element ids are kept as they are). */
function snakeKeys(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k === 'elements' ? k : snake(k), v]));
}

/** The type-specific part of the document check: fields, MRZ with its check digits, barcode. */
export function documentResultBody(r: DocumentResult, side: string): Record<string, unknown> {
  return {
    read_from: side,
    field_source: r.fieldSource,
    document_type: r.fields?.documentType ?? null,
    fields: r.fields ? snakeKeys(r.fields) : null,
    mrz: r.mrz
      ? {
          format: r.mrz.format,
          lines: r.mrz.lines,
          valid: r.mrz.valid,
          checks: r.mrz.checks.map(snakeKeys),
          corrections: r.mrz.corrections.map(snakeKeys),
          ocr_confidence: Math.round(r.mrz.ocrConfidence * 10) / 10,
          ocr_engines: r.mrz.engines,
          field_confidence: Object.fromEntries(
            r.mrz.fieldConfidence.map((f) => [
              snake(f.field),
              { level: f.level, agreement: f.agreement, readings: f.readings, of: f.of, checked: f.checked, rivals: f.rivals },
            ]),
          ),
        }
      : null,
    barcode: r.barcode ? { symbology: r.barcode.symbology, standard: r.barcode.standard, fields: snakeKeys(r.barcode.fields) } : null,
  };
}

export function sideSummary(r: DocumentResult): Record<string, unknown> {
  return { verdict: r.verdict, reasons: r.reasons, field_source: r.fieldSource, mrz_found: r.mrz !== null, image: r.image };
}
