import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { pnm, rgbaToRgb } from '../image/pnm.js';

interface NodeCanvas {
  width: number;
  height: number;
}

interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): {
    canvas: NodeCanvas;
    context: {
      fillStyle: string;
      fillRect(x: number, y: number, w: number, h: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray; width: number; height: number };
    };
  };
  destroy(entry: unknown): void;
}

/**
 * Rasterises a page for OCR. 200 dpi is where Tesseract's LSTM reads body text reliably without
 * spending time on pixels it does not need. The canvas must come from pdfjs's own factory: pdfjs
 * bundles its own @napi-rs/canvas build, and mixing two native canvas builds crashes the process. The page goes
 * to tesseract as PNM (P6: the canvas's RGB, its alpha dropped: the page is painted opaque white first) rather
 * than as a PNG that tesseract would inflate again.
 */
export async function renderPdfPage(
  doc: PDFDocumentProxy,
  page: PDFPageProxy,
  dpi = 200,
  maxPixels = 12_000_000,
): Promise<{ image: Buffer; scale: number }> {
  const base = page.getViewport({ scale: 1 });
  let scale = dpi / 72;
  const pixels = base.width * base.height * scale * scale;
  if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
  const viewport = page.getViewport({ scale });
  const factory = doc.canvasFactory as CanvasFactory;
  const entry = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  try {
    entry.context.fillStyle = '#ffffff';
    entry.context.fillRect(0, 0, entry.canvas.width, entry.canvas.height);
    await page.render({ canvasContext: entry.context, canvas: entry.canvas, viewport } as unknown as Parameters<PDFPageProxy['render']>[0])
      .promise;
    const { data, width, height } = entry.context.getImageData(0, 0, entry.canvas.width, entry.canvas.height);
    return { image: pnm(rgbaToRgb(data), width, height, 3), scale };
  } finally {
    factory.destroy(entry);
  }
}
