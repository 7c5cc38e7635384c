import { TextInputError } from './input-error.js';
import { resolveMediaType } from './media-type.js';
import { prepareImageForOcr } from './image-prep.js';
import { createTesseractOcr, type OcrEngine } from './ocr.js';
import { openPdf, readPdfInfo, readPdfPageWords } from './pdf-text.js';
import { renderPdfPage } from './pdf-render.js';
import { defaultInputLimits, type InputLimits, type TextDocument, type TextPage } from './types.js';

export interface ExtractTextOptions {
  /** Shared OCR engine; without one a worker is created for this call and closed afterwards. */
  ocr?: OcrEngine;
  limits?: Partial<InputLimits>;
  /** A PDF page with fewer text-layer characters than this is treated as scanned and OCR'd. */
  minTextChars?: number;
  ocrDpi?: number;
}

/**
 * Text with word positions from a PDF or an image. PDF text layers are read directly (exact, fast);
 * pages without one (scans) and images go through OCR. OCR coordinates are mapped back to the
 * original page units so boxes from both sources mean the same thing.
 */
export async function extractText(input: Buffer, mime?: string, options: ExtractTextOptions = {}): Promise<TextDocument> {
  const limits = { ...defaultInputLimits, ...options.limits };
  if (input.length > limits.maxBytes) throw new TextInputError('too_large', `the document exceeds ${limits.maxBytes} bytes`);
  const mediaType = resolveMediaType(input, mime);
  const ownOcr = options.ocr ? null : lazyOcr();
  const ocr = options.ocr ?? ownOcr!.engine;
  try {
    if (mediaType !== 'application/pdf') {
      const prepared = await prepareImageForOcr(input, limits.maxPixels);
      const page = scalePage(await ocr.recognize(prepared.image), 1 / prepared.scale, prepared.width, prepared.height);
      return { pages: [page], source: 'ocr', mediaType };
    }
    const doc = await openPdf(input);
    try {
      if (doc.numPages > limits.maxPages)
        throw new TextInputError('too_many_pages', `the PDF has ${doc.numPages} pages; at most ${limits.maxPages} are accepted`);
      const pdfInfo = await readPdfInfo(doc);
      const pages: TextPage[] = [];
      let ocrUsed = false;
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const textPage = await readPdfPageWords(page);
        const chars = textPage.words.reduce((sum, w) => sum + w.text.length, 0);
        if (chars >= (options.minTextChars ?? 20)) {
          pages.push(textPage);
        } else {
          ocrUsed = true;
          const { image, scale } = await renderPdfPage(doc, page, options.ocrDpi ?? 200);
          pages.push(scalePage(await ocr.recognize(image), 1 / scale, textPage.width, textPage.height));
        }
        page.cleanup();
      }
      return { pages, source: ocrUsed ? 'ocr' : 'pdf_text', mediaType, pdfInfo };
    } finally {
      await doc.destroy();
    }
  } finally {
    await ownOcr?.close();
  }
}

function lazyOcr(): { engine: OcrEngine; close: () => Promise<void> } {
  let engine: OcrEngine | null = null;
  return {
    engine: { recognize: (img) => (engine ??= createTesseractOcr()).recognize(img), close: async () => engine?.close() },
    close: async () => engine?.close(),
  };
}

function scalePage(page: TextPage, factor: number, width: number, height: number): TextPage {
  return {
    width,
    height,
    words: page.words.map((w) => ({ ...w, x: w.x * factor, y: w.y * factor, w: w.w * factor, h: w.h * factor })),
  };
}
