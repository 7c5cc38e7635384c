import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { pnm } from '../image/pnm.js';
import type { GrayImage } from './image-ops.js';
import { GridReader, type GridLine } from './mrz-grid.js';
import { OCRB_NET } from './mrz-ocrb-net.js';
import { PpOcrRecogniser, PPOCR_NET, type LineNet, type PpLine } from './mrz-ppocr.js';
import type { MrzEngine } from './mrz-vote.js';

/**
 * Reads MRZ text with tesseract.js's legacy engine, which reads OCR-B fillers ("<") far better than the LSTM
 * model (see DEPENDENCIES.md). The traineddata comes from @tesseract.js-data/eng in node_modules; nothing is
 * downloaded. tesseract.js runs recognition in its own worker thread, so the event loop stays free.
 */

const require = createRequire(import.meta.url);

export function traineddataDir(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
}

export const MRZ_OCR_MODEL = { name: 'tesseract.js-legacy-eng', version: '7.0.0/4.0.0' };
export { PPOCR_MODEL } from './mrz-ppocr.js';

export interface OcrSymbol {
  text: string;
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface OcrLine {
  text: string;
  confidence: number;
  symbols: OcrSymbol[];
}
export interface OcrResult {
  text: string;
  confidence: number;
  lines: OcrLine[];
}

/**
 * The longest one tesseract pass over a band may take. Passes over the real MRZ bands of sets A and C took p50 0.4 s,
 * p99 1.7 s, at most 2.1 s on this 2-core machine at load 5–6 (160 passes; a 7.5 s document check is many passes): the
 * limit leaves a loaded test machine four times that. A band of noise took 20 s a pass, so a hostile upload held a
 * worker past its timeout.
 */
export const TESSERACT_PASS_LIMIT_MS = 8000;

/** The vote's engine names of the line networks. */
export type NetEngine = Exclude<MrzEngine, 'tesseract'>;

/** A grey image as a sharp pipeline's input. */
function sharpOf(image: GrayImage): ReturnType<typeof sharp> {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: { width: image.width, height: image.height, channels: 1 },
  });
}

/** A sharp pipeline's output as PNM: grey, or RGB where sharp works in colour (its sharpening). Grey in, no alpha out. */
async function pnmOf(img: ReturnType<typeof sharp>): Promise<Buffer> {
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1 && info.channels !== 3) throw new Error(`pnmOf: sharp gave ${info.channels} channels`);
  return pnm(data, info.width, info.height, info.channels);
}

export class MrzOcr {
  private worker: Worker | null = null;
  private starting: Promise<Worker> | null = null;
  private textWorker: Promise<Worker> | null = null;
  /** The line networks by the engine name their readings carry in the vote: `ppocr` (the second engine), `ocrb`. */
  private readonly nets = new Map<NetEngine, PpOcrRecogniser>();
  /** The second engine's network (its name and version go into a result's model list). */
  readonly secondNet: LineNet;
  /** A third reader's network (engine `ocrb` in the vote), or null. */
  readonly thirdNet: LineNet | null;
  private grid: Promise<GridReader | null> | null;

  /**
   * `secondEngine` (default true): also read the MRZ with PP-OCRv4 (mrz-ppocr.ts) and accept readings by
   * whole-line vote of both engines. Off, only tesseract reads (the reader before PP-OCR; benches compare).
   * `gridReader` (default true): the fixed-pitch OCR-B cell reader (mrz-grid.ts) as a third opinion on
   * name letters the engines read differently; off, the reader before it (benches compare).
   * `secondNet`: the line network of the second engine (default PP-OCRv4; mrz-ocrb-net.ts has our OCR-B one).
   * `thirdNet`: a third reader beside tesseract and the second engine, its readings voted as engine `ocrb`
   * (default our OCR-B network, mrz-ocrb-net.ts; null: none, the reader before 2026-11-25, which benches compare).
   */
  constructor(options: { secondEngine?: boolean; gridReader?: boolean; secondNet?: LineNet; thirdNet?: LineNet | null } = {}) {
    this.secondNet = options.secondNet ?? PPOCR_NET;
    this.thirdNet = options.secondEngine === false ? null : options.thirdNet === undefined ? OCRB_NET : options.thirdNet;
    if (options.secondEngine !== false) this.nets.set('ppocr', new PpOcrRecogniser(this.secondNet));
    if (this.thirdNet) this.nets.set('ocrb', new PpOcrRecogniser(this.thirdNet));
    this.grid = options.gridReader === false ? Promise.resolve(null) : null;
  }

  /** One MRZ line read cell by cell (N cells); null when the OCR-B font is not installed or no cells were cut. */
  async readGridLine(line: GrayImage, cells: number, allowed?: (cell: number) => string): Promise<GridLine | null> {
    // Templates are rendered from the font on first use (about a second).
    this.grid ??= GridReader.load().catch(() => null);
    const grid = await this.grid;
    return grid ? grid.readLine(line, cells, allowed) : null;
  }

  /** Starts the tesseract worker(s) (~1-2 s each) and the PP-OCR session; called lazily on first use when omitted. */
  async init(options: { text?: boolean } = {}): Promise<void> {
    await this.ready();
    for (const net of this.nets.values()) await net.init();
    this.grid ??= GridReader.load().catch(() => null);
    await this.grid;
    if (options.text) await this.recogniseText({ data: new Uint8Array(64 * 32).fill(255), width: 64, height: 32 });
  }

  hasSecondEngine(): boolean {
    return this.nets.has('ppocr');
  }

  /** The band read by one line network, line by line, with per-character probabilities and runner-ups (empty without it). */
  async recogniseWith(engine: NetEngine, image: GrayImage): Promise<OcrResult & { ppLines: PpLine[] }> {
    const net = this.nets.get(engine);
    if (!net) return { text: '', confidence: 0, lines: [], ppLines: [] };
    return net.recogniseBand(image);
  }

  private ready(): Promise<Worker> {
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= (async () => {
      const w = await createWorker(
        'eng',
        OEM.TESSERACT_ONLY,
        { langPath: traineddataDir(), gzip: true, cacheMethod: 'none' },
        {
          // Dictionaries only hurt on MRZ text, which has no words.
          load_system_dawg: '0',
          load_freq_dawg: '0',
        },
      );
      await w.setParameters({
        tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
        tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
        user_defined_dpi: '300',
        // The legacy classifier adapts to what it has read before; off, so a result never depends on earlier requests.
        classify_enable_learning: '0',
      });
      this.worker = w;
      return w;
    })();
    return this.starting;
  }

  /**
   * `enhance` stretches contrast and applies an unsharp mask first: on soft or low-resolution captures
   * this turned several failed PassportEye specimens into valid reads, but it can hurt crisp prints.
   */
  async recognise(image: GrayImage, options: { enhance?: boolean } = {}): Promise<OcrResult> {
    const worker = await this.ready();
    const input = options.enhance
      ? await pnmOf(sharpOf(image).normalise().sharpen({ sigma: 1.5 }))
      : pnm(image.data, image.width, image.height, 1);
    const recognised = worker.recognize(input, {}, { text: true, blocks: true });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), TESSERACT_PASS_LIMIT_MS)));
    const result = await Promise.race([recognised, late]).finally(() => clearTimeout(timer));
    if (!result) {
      // The legacy engine segments noise into thousands of blobs and classifies each: one band of random pixels took
      // 20 s. The pass reads nothing; the worker, still busy with it, is replaced (the next pass starts a new one).
      recognised.catch(() => undefined);
      if (this.worker === worker) {
        this.worker = null;
        this.starting = null;
      }
      void worker.terminate().catch(() => undefined);
      return { text: '', confidence: 0, lines: [] };
    }
    const { data } = result;
    const lines: OcrLine[] = [];
    for (const block of data.blocks ?? []) {
      for (const para of block.paragraphs) {
        for (const line of para.lines) {
          const symbols = line.words.flatMap((w) => w.symbols.map((s) => ({ text: s.text, confidence: s.confidence, ...s.bbox })));
          lines.push({ text: line.text.trim(), confidence: line.confidence, symbols });
        }
      }
    }
    return { text: data.text, confidence: data.confidence, lines };
  }

  /**
   * Plain text of a printed (non-MRZ) zone with the LSTM model, which reads proportional fonts far better
   * than the legacy engine. A second worker, started on first use (or by init({ text: true })).
   */
  async recogniseText(image: GrayImage): Promise<{ text: string; confidence: number }> {
    this.textWorker ??= (async () => {
      const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath: traineddataDir(), gzip: true, cacheMethod: 'none' });
      await w.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '300', debug_file: '/dev/null' });
      return w;
    })();
    const worker = await this.textWorker;
    // Security printing leaves the zone grey on grey; stretching the contrast first helps the LSTM reader.
    const input = await pnmOf(sharpOf(image).normalise());
    const { data } = await worker.recognize(input);
    return { text: data.text, confidence: data.confidence };
  }

  async terminate(): Promise<void> {
    const w = this.worker ?? (this.starting ? await this.starting.catch(() => null) : null);
    const t = this.textWorker ? await this.textWorker.catch(() => null) : null;
    this.worker = null;
    this.starting = null;
    this.textWorker = null;
    for (const net of this.nets.values()) await net.terminate();
    if (w) await w.terminate();
    if (t) await t.terminate();
  }
}
