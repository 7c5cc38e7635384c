import { TEXTURE_SIZE } from './texture.js';
import type { DetectedFace, ImageInfo } from './types.js';

/**
 * The passive liveness score (issue #19): a logistic regression over two texture signals of one frame,
 * fitted on real captures by bench/liveness-fused.ts (figures and data in docs/face.md, § Liveness on real
 * captures). The learned anti-spoofing and liveness models did not separate real prints from live webcam
 * frames there (they keep their own floors in liveness-decision.ts, not a weight here).
 *
 * - `sharpness`: ln(1 + Laplacian variance) of the 256-px face crop, minus 2·ln(side / 256) where side is the
 *   face's side in the input capped at 256: a small face is upsampled to 256 px for the measure, which lowers
 *   its Laplacian variance roughly with the square of the factor, so the feature adds it back and a genuine
 *   low-resolution capture is not read as a blurred reprint only for being small. (The exponent 2 is set, not fitted.)
 * - `moire`: ln(moiré peak ratio), capped at PASSIVE_MOIRE_CAP. Measured on a tile under
 *   PASSIVE_MOIRE_MIN_TILE px (a face square under 128 px) it is **insufficient evidence** and takes the neutral
 *   value PASSIVE_MOIRE_NEUTRAL (≈ the median of live captures), so it neither helps nor hurts.
 */
export const PASSIVE_MOIRE_MIN_TILE = 128;
export const PASSIVE_MOIRE_NEUTRAL = 30;
export const PASSIVE_MOIRE_CAP = 300;
const SHARPNESS_CAP = 1000;

export interface PassiveFeatures {
  sharpness: number;
  moire: number;
  /** False when the moiré measure was not usable (face square under PASSIVE_MOIRE_MIN_TILE px). */
  moireMeasured: boolean;
  /** The face's side used for the scale normalisation (input pixels, at most 256). */
  sidePx?: number;
}

export function passiveFeatures(face: DetectedFace, image: Pick<ImageInfo, 'width' | 'height'>): PassiveFeatures {
  const t = face.texture;
  const side = Math.max(1, Math.min(TEXTURE_SIZE, face.sizePx, image.width, image.height));
  const sharpness = Math.log(1 + Math.min(Math.max(0, t?.sharpness ?? 0), SHARPNESS_CAP)) - 2 * Math.log(side / TEXTURE_SIZE);
  const moireMeasured = (t?.moireTilePx ?? 0) >= PASSIVE_MOIRE_MIN_TILE;
  const moire = Math.log(moireMeasured ? Math.max(1, Math.min(PASSIVE_MOIRE_CAP, t!.moirePeakRatio)) : PASSIVE_MOIRE_NEUTRAL);
  return { sharpness, moire, moireMeasured, sidePx: side };
}

/**
 * Coefficients on the raw features. Fitted by `npm run bench -- liveness-fused` on the **calibration half** of
 * ../shared/data/real/liveness (subject groups split by an FNV-1a hash of the group name: doubango_all,
 * nuaa_0001, nuaa_0012, nuaa_0016, rh_antoine; 106 faces, 42 live and 64 attacks), L2 λ = 10 on standardised
 * features, then the intercept shifted so that score 0.5 is the pass point chosen there (at most 5 % of its
 * attacks at or above it); `failBelow` is where at most 5 % of its live captures fall below. Run 2026-11-24.
 */
export const PASSIVE_LIVENESS_MODEL = {
  intercept: -0.7364,
  sharpness: 0.9485,
  moire: -1.2766,
  /** Score below which the capture fails on the passive evidence alone (between it and 0.5: review). */
  failBelow: 0.2509,
} as const;

/**
 * The face side (px, as in `passiveFeatures`) from which a low passive score may fail a capture on its own. A
 * smaller face was upsampled for the texture measures: a low score there is insufficient evidence (review), as
 * genuine low-resolution photos score like prints (docs/face.md).
 */
export const PASSIVE_FAIL_MIN_SIDE_PX = TEXTURE_SIZE;

/** The passive score of one frame: 0.5 is the calibrated pass point. */
export function passiveScore(f: PassiveFeatures, model: typeof PASSIVE_LIVENESS_MODEL = PASSIVE_LIVENESS_MODEL): number {
  const z = model.intercept + model.sharpness * f.sharpness + model.moire * f.moire;
  return 1 / (1 + Math.exp(-z));
}
