import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pdfjs } from './pdfjs.js';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { TextInputError } from './input-error.js';
import type { PdfInfo, TextPage, Word } from './types.js';

const require = createRequire(import.meta.url);
// pdfjs reads the 14 standard fonts from disk in Node; without them it warns and guesses metrics.
const standardFontDataUrl = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

export async function openPdf(input: Buffer): Promise<PDFDocumentProxy> {
  // pdfjs takes ownership of (and may detach) the array it is given, so hand it a copy.
  const data = new Uint8Array(input.byteLength);
  data.set(input);
  try {
    return await pdfjs.getDocument({ data, standardFontDataUrl, isEvalSupported: false, verbosity: 0, stopAtErrors: false }).promise;
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new TextInputError('encrypted', 'the PDF is password-protected', { cause: err });
    throw new TextInputError('unreadable', 'the PDF could not be parsed', { cause: err });
  }
}

interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

/** Words of one page's text layer in top-left page coordinates (points), one box per whitespace-separated word. */
export async function readPdfPageWords(page: PDFPageProxy): Promise<TextPage> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const words: Word[] = [];
  for (const raw of content.items) {
    if (!('str' in raw)) continue;
    const item = raw as PdfTextItem;
    if (!item.str.trim()) continue;
    const [a = 1, b = 0, , , e = 0, f = 0] = item.transform;
    const size = item.height || Math.hypot(a, b);
    const [left, baseline] = viewport.convertToViewportPoint(e, f) as [number, number];
    // Glyph boxes are not in the text layer; spread the run's width over its characters.
    const perChar = item.str.length > 0 ? item.width / item.str.length : 0;
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(item.str))) {
      words.push({
        text: m[0],
        x: left + m.index * perChar,
        y: baseline - size * 0.8,
        w: m[0].length * perChar,
        h: size,
        confidence: 1,
        font: item.fontName,
      });
    }
  }
  return { width: viewport.width, height: viewport.height, words };
}

function pdfString(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export async function readPdfInfo(doc: PDFDocumentProxy): Promise<PdfInfo> {
  const meta = await doc.getMetadata().catch(() => null);
  const info = (meta?.info ?? {}) as Record<string, unknown>;
  return {
    pageCount: doc.numPages,
    producer: pdfString(info.Producer),
    creator: pdfString(info.Creator),
    creationDate: pdfString(info.CreationDate),
    modDate: pdfString(info.ModDate),
    pdfVersion: pdfString(info.PDFFormatVersion),
  };
}
