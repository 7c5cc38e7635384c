export {
  extractDocumentFields,
  locateFields,
  DOCUMENT_AI_MODEL,
  type DocumentAiOptions,
  type DocumentAiResult,
  type ExtractedField,
} from './extract-document-fields.js';
export { validateFieldSpecs, DocumentAiInputError, MAX_FIELDS, type FieldSpec, type RelativeRegion } from './field-spec.js';
export { findTypedValues, parseAmount, type FieldType, type TypedValue } from './value-types.js';
export { checkIban, makeIban, ibanMod97, type IbanCheck } from './iban.js';
export { analysePdfTampering, parsePdfDate, type PdfTamperOptions } from './tamper-pdf.js';
export { analyseImageTampering, type ImageTamperOptions } from './tamper-image.js';
export { splitRevisions, readPdfStructure } from './pdf-structure.js';
