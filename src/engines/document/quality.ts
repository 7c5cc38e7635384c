import { signal, type Signal } from '../signal.js';
import { laplacianVariance, type GrayImage } from './image-ops.js';
import { insideQuad, outOfFrame } from './layout.js';
import type { Point } from './warp.js';

/**
 * Capture-quality measurements. Blur is measured on the deskewed MRZ crop, which the locator always
 * rescales to the same text height, so the number does not depend on how large the document is in the photo.
 */

export const QUALITY_THRESHOLDS = {
  /** Laplacian variance of the normalised MRZ crop; calibrated on renders (see docs/documents.md). */
  minMrzSharpness: 25,
  /** MRZ character height in original pixels; below this OCR-B glyphs lose their distinguishing strokes. */
  minMrzCharHeightPx: 7,
  /** Share of the document area that is saturated (specular highlight). */
  maxGlareFraction: 0.08,
  /** Share of the page diagonal allowed outside the frame before the document counts as cut off. */
  maxOutOfFrame: 0.04,
};

export interface QualityInput {
  gray: GrayImage;
  /** The deskewed MRZ crop, when an MRZ was found. */
  mrzCrop: GrayImage | null;
  /** MRZ character height in original-image pixels. */
  mrzCharHeightPx: number | null;
  /** Page outline in working pixels (from the MRZ geometry and/or the edge detector), when known. */
  documentQuad: Point[] | null;
  /** Where `documentQuad` comes from, for the reviewer's detail text (default: the MRZ). */
  outlineSource?: 'edges' | 'mrz' | 'edges+mrz' | null;
  /** No outline, but the edge detector saw the page run into the image border (a side outside the photo). */
  cutAtBorder?: boolean;
}

export interface QualityResult {
  signals: Signal[];
  blurry: boolean | null;
  lowResolution: boolean | null;
  glare: boolean;
  outOfFrame: boolean | null;
}

export function assessQuality(input: QualityInput): QualityResult {
  const t = QUALITY_THRESHOLDS;
  const signals: Signal[] = [];
  const sharpness = input.mrzCrop ? laplacianVariance(input.mrzCrop) : null;
  const blurry = sharpness === null ? null : sharpness < t.minMrzSharpness;
  signals.push(
    signal('mrz_sharpness', sharpness === null ? null : round(sharpness), blurry === null ? null : !blurry, {
      threshold: t.minMrzSharpness,
      detail: 'Variance of the Laplacian over the MRZ rescaled to a fixed text height; low means blurred.',
    }),
  );
  const lowResolution = input.mrzCharHeightPx === null ? null : input.mrzCharHeightPx < t.minMrzCharHeightPx;
  signals.push(
    signal(
      'mrz_char_height_px',
      input.mrzCharHeightPx === null ? null : round(input.mrzCharHeightPx),
      lowResolution === null ? null : !lowResolution,
      { threshold: t.minMrzCharHeightPx, detail: 'Height of MRZ characters in the original image, in pixels.' },
    ),
  );
  // Without the page outline, white scanner beds and barcode quiet zones would read as glare; not measured.
  // A scan whose paper is itself at saturation has no headroom for a highlight to show; not measurable either.
  const glareFraction =
    input.documentQuad && paperLevel(input.gray, input.documentQuad) < 246 ? saturatedFraction(input.gray, input.documentQuad) : null;
  const glare = glareFraction !== null && glareFraction > t.maxGlareFraction;
  signals.push(
    signal('glare_fraction', glareFraction === null ? null : round(glareFraction, 4), glareFraction === null ? null : !glare, {
      threshold: t.maxGlareFraction,
      detail: 'Share of the page area covered by saturated highlights.',
    }),
  );
  let out: boolean | null = null;
  if (input.documentQuad) {
    const beyond = outOfFrame(input.documentQuad, input.gray.width, input.gray.height);
    out = beyond > t.maxOutOfFrame;
    const from =
      input.outlineSource === 'edges'
        ? 'found from its edges'
        : input.outlineSource === 'edges+mrz'
          ? 'found from its edges (confirmed by the MRZ geometry)'
          : 'predicted from the MRZ';
    signals.push(
      signal('document_out_of_frame', round(beyond, 4), !out, {
        threshold: t.maxOutOfFrame,
        detail: `How far the page outline ${from} extends beyond the image, as a share of its diagonal.`,
      }),
    );
  } else if (input.cutAtBorder) {
    out = true;
    signals.push(
      signal('document_out_of_frame', null, false, {
        threshold: t.maxOutOfFrame,
        detail: 'Three page edges were found and the fourth side is the image border: part of the page is outside the photo.',
      }),
    );
  } else {
    signals.push(signal('document_out_of_frame', null, null, { detail: 'Page outline unknown (no MRZ format and no page edges found).' }));
  }
  return { signals, blurry, lowResolution, glare, outOfFrame: out };
}

/** 75th percentile of grey inside the page: the paper's white level (print is the darker quarter or less). */
function paperLevel(gray: GrayImage, quad: Point[]): number {
  const hist = new Array<number>(256).fill(0);
  let n = 0;
  const step = Math.max(1, Math.floor(Math.max(gray.width, gray.height) / 400));
  for (let y = 0; y < gray.height; y += step) {
    for (let x = 0; x < gray.width; x += step) {
      if (!insideQuad(quad, x, y)) continue;
      const v = gray.data[y * gray.width + x] ?? 0;
      hist[v] = (hist[v] ?? 0) + 1;
      n++;
    }
  }
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v] ?? 0;
    if (acc >= 0.75 * n) return v;
  }
  return 255;
}

/** Pixels at or above 250 in a 4-connected clump of at least 0.1 % of the area count as glare, not white print. */
function saturatedFraction(gray: GrayImage, quad: Point[]): number {
  const { width: w, height: h, data } = gray;
  const step = Math.max(1, Math.floor(Math.max(w, h) / 800));
  let inside = 0;
  let hot = 0;
  for (let y = 0; y < h; y += step) {
    for (let x = 0; x < w; x += step) {
      if (!insideQuad(quad, x, y)) continue;
      inside++;
      // A highlight saturates a whole neighbourhood; a white background or paper texture rarely does.
      if ((data[y * w + x] ?? 0) >= 250 && neighbourhoodSaturated(data, w, h, x, y, 3 * step)) hot++;
    }
  }
  return inside === 0 ? 0 : hot / inside;
}

function neighbourhoodSaturated(data: Uint8Array, w: number, h: number, x: number, y: number, r: number): boolean {
  for (const [dx, dy] of [
    [-r, 0],
    [r, 0],
    [0, -r],
    [0, r],
  ] as const) {
    const xx = x + dx;
    const yy = y + dy;
    if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
    if ((data[yy * w + xx] ?? 0) < 250) return false;
  }
  return true;
}

function round(v: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
