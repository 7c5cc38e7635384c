export { extractText, type ExtractTextOptions } from './extract-text.js';
export { createTesseractOcr, type OcrEngine } from './ocr.js';
export { TextInputError, type TextInputErrorCode } from './input-error.js';
export { sniffMediaType, resolveMediaType } from './media-type.js';
export { groupLines, groupSegments, pageText, type TextLine } from './lines.js';
export type { Word, TextPage, TextDocument, PdfInfo, InputLimits, SupportedMediaType } from './types.js';
export { defaultInputLimits } from './types.js';
