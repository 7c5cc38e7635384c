/** Public surface of the document engine; see docs/documents.md. */
export { readDocument, cropPortrait, initDocumentEngine, shutdownDocumentEngine } from './read-document.js';
export { DocumentInputError, DEFAULT_LIMITS, decodeImage, type DocumentInputErrorCode, type InputLimits } from './image-input.js';
export { REASON_CODES, type ReasonCode } from './decide.js';
export { parseMrz, MrzFormatError, type ParsedMrz, type MrzFields } from './mrz-parse.js';
export { correctMrz, normaliseOcrLines } from './mrz-correct.js';
export { checkDigit } from './mrz-check.js';
export { MrzOcr } from './mrz-ocr.js';
export { parseAamva, readPdf417, AamvaFormatError } from './aamva.js';
export type {
  DocumentFields,
  DocumentResult,
  ReadDocumentOptions,
  MrzSummary,
  DocumentType,
  MrzFormat,
  MrzCheck,
  Correction,
  AamvaFields,
} from './types.js';
