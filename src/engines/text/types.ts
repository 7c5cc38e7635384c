/** A word with its box in page units, origin at the top-left (PDF points for text layers, pixels for OCR). */
export interface Word {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** 0..1; 1 for a PDF text layer, Tesseract's word confidence for OCR. */
  confidence: number;
  /** Font resource id from the PDF text layer; absent for OCR. */
  font?: string;
  /** Line index assigned by OCR layout analysis; skewed scans group better by it than by geometry. */
  line?: number;
}

export interface TextPage {
  width: number;
  height: number;
  words: Word[];
}

export interface PdfInfo {
  pageCount: number;
  producer: string | null;
  creator: string | null;
  creationDate: string | null;
  modDate: string | null;
  pdfVersion: string | null;
}

export interface TextDocument {
  pages: TextPage[];
  source: 'pdf_text' | 'ocr';
  mediaType: SupportedMediaType;
  pdfInfo?: PdfInfo;
}

export type SupportedMediaType = 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/webp' | 'image/tiff';

/** Limits applied before any parsing, so a hostile upload cannot exhaust memory or CPU. */
export interface InputLimits {
  maxBytes: number;
  maxPages: number;
  maxPixels: number;
}

export const defaultInputLimits: InputLimits = { maxBytes: 15 * 1024 * 1024, maxPages: 10, maxPixels: 40_000_000 };
