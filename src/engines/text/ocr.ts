import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Tesseract from 'tesseract.js';
import { pnmSize } from '../image/pnm.js';
import type { TextPage, Word } from './types.js';

/** OCR behind a small interface so callers (and tests) can share one worker and close it. */
export interface OcrEngine {
  recognize(image: Buffer): Promise<TextPage>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

function engLangPath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
}

/**
 * Tesseract LSTM over the traineddata shipped in npm (no download at run time). The worker is created
 * on first use; recognitions are serialised because one worker holds one image at a time.
 */
export function createTesseractOcr(): OcrEngine {
  let worker: Promise<Tesseract.Worker> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const getWorker = (): Promise<Tesseract.Worker> => {
    worker ??= (async () => {
      const w = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, { langPath: engLangPath(), gzip: true, cacheMethod: 'none' });
      await w.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO, preserve_interword_spaces: '1', user_defined_dpi: '200' });
      return w;
    })();
    return worker;
  };
  return {
    recognize(image: Buffer): Promise<TextPage> {
      const run = queue.then(async () => {
        const w = await getWorker();
        const { data } = await w.recognize(image, {}, { blocks: true, text: false });
        return toPage(data.blocks ?? [], image);
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async close(): Promise<void> {
      if (!worker) return;
      const w = await worker.catch(() => null);
      worker = null;
      await w?.terminate();
    },
  };
}

type Blocks = NonNullable<Tesseract.Page['blocks']>;

function toPage(blocks: Blocks, image: Buffer): TextPage {
  const words: Word[] = [];
  let lineNo = 0;
  for (const block of blocks) {
    for (const para of block.paragraphs) {
      for (const line of para.lines) {
        lineNo++;
        for (const w of line.words) {
          const text = w.text.trim();
          if (!text) continue;
          words.push({
            text,
            x: w.bbox.x0,
            y: w.bbox.y0,
            w: w.bbox.x1 - w.bbox.x0,
            h: w.bbox.y1 - w.bbox.y0,
            confidence: w.confidence / 100,
            line: lineNo,
          });
        }
      }
    }
  }
  const { width, height } = imageSize(image);
  return { width, height, words };
}

/** Width and height from the image's header: PNM (what the text engine prepares) or PNG. */
function imageSize(image: Buffer): { width: number; height: number } {
  return pnmSize(image) ?? pngSize(image) ?? { width: 0, height: 0 };
}

function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length >= 24 && png.toString('latin1', 12, 16) === 'IHDR') return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  return null;
}
