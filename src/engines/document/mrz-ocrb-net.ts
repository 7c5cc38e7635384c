import { fileURLToPath } from 'node:url';
import { resizeGray } from './gray-resize.js';
import { grayPercentiles, type GrayImage } from './image-ops.js';
import { MRZ_ALPHABET, type LineNet } from './mrz-ppocr.js';

/**
 * Our own MRZ line recogniser (issue #19 item 2): a small convolutional CTC network over blank + the 37 MRZ
 * characters, trained only on synthetic OCR-B lines (training/mrz-recogniser: Debian's fonts-ocr-b, PyTorch from
 * Debian) and shipped in the repository as ONNX (models/, ~1.4 MB). It reads a line crop scaled to 32 px high,
 * one output step per 4 px of width, and plugs into the same CTC decoding as PP-OCR (mrz-ppocr.ts).
 */
export const OCRB_NET_MODEL = { name: 'verity-mrz-ocrb-cnn', version: '1' };

const HEIGHT = 32;
const MAX_WIDTH = 3200;
const FILE = fileURLToPath(new URL('../../../models/mrz-ocrb-cnn.onnx', import.meta.url));

export const OCRB_NET: LineNet = {
  model: OCRB_NET_MODEL,
  file: () => FILE,
  // Class 0 is the blank; class i + 1 is MRZ_ALPHABET[i].
  classes: () => MRZ_ALPHABET.split('').map((_, i) => [i + 1]),
  input: ocrbInput,
  // Calibrated on the network's readings of the names lines of set B's even and odd halves (line crops, 1,180
  // letters, 14 misread in 7 lines; both halves tuned on): at 95 / 99 every line with a misread letter holds a
  // letter under the limit, and 21 of the 71 right lines too (PP-OCR's 90 / 97 left one wrong line unflagged).
  nameMinConfidence: { letter: 95, lookalike: 99 },
};

/**
 * The line scaled to 32 px high (aspect kept), its contrast stretched between its 2nd and 98th percentiles, in
 * [-1, 1], and cut to its ink: from the first to the last column with ink, plus half the height each side. The
 * network was trained with margins up to about a character wide and never taught that a wide empty margin
 * holds no character (it can read a "<" in one).
 */
export async function ocrbInput(line: GrayImage): Promise<{ data: Float32Array; dims: number[] }> {
  const width = Math.max(8, Math.min(MAX_WIDTH, Math.round((line.width * HEIGHT) / Math.max(1, line.height))));
  const px = (await resizeGray(line, width, HEIGHT)).data;
  const pct = grayPercentiles(px);
  const lo = pct(0.02);
  const span = Math.max(1, pct(0.98) - lo);
  const [x0, x1] = inkColumns(px, width, lo + span / 2);
  const w = x1 - x0;
  const data = new Float32Array(w * HEIGHT);
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < w; x++) data[y * w + x] = Math.min(1, Math.max(0, ((px[y * width + x0 + x] ?? 0) - lo) / span)) * 2 - 1;
  return { data, dims: [1, 1, HEIGHT, w] };
}

/** [first, last + 1) columns to keep: the columns with ink (two or more pixels darker than `dark`) and half the height around them. */
function inkColumns(px: Uint8Array, width: number, dark: number): [number, number] {
  let first = -1;
  let last = -1;
  for (let x = 0; x < width; x++) {
    let n = 0;
    for (let y = 0; y < HEIGHT; y++) if ((px[y * width + x] ?? 255) < dark) n++;
    if (n >= 2) {
      if (first < 0) first = x;
      last = x;
    }
  }
  if (first < 0) return [0, width];
  const margin = HEIGHT / 2;
  const x0 = Math.max(0, first - margin);
  const x1 = Math.min(width, last + 1 + margin);
  return x1 - x0 >= 8 ? [x0, x1] : [0, width];
}
