import type { CheckVerdict, ModelInfo, Signal } from '../signal.js';

export type Box = [x: number, y: number, width: number, height: number];

/**
 * Which embedding the engine matches with. `face-api` (default): Human's detector and mesh, 5-point
 * alignment (align.ts), face-api's recognition net, 128 values. `faceres`: Human's own HSE FaceRes
 * embedding, 1024 values, the pipeline before issue #19, kept for comparison (bench/face-real-quality.ts).
 */
export type FaceEmbedder = 'face-api' | 'faceres';

/** Texture measurements on the face crop, used as presentation-attack signals (see texture.ts). */
export interface TextureMeasures {
  /** Variance of the Laplacian on the 256 px grey face crop: low means blurred or recaptured. */
  sharpness: number;
  /** Strongest narrow peak in the mid/high-frequency spectrum over its ring median: screens and halftone print make periodic peaks. */
  moirePeakRatio: number;
  /** Side of the square the moiré peak was measured on (power of two, 64–256); 0 when the face was too small to measure it. */
  moireTilePx: number;
  /** Share of spectral energy above 1/4 of the Nyquist frequency. */
  highFrequencyShare: number;
  /** Mean colour saturation (0..1) of the crop: prints and screens often shift it. */
  saturation: number;
  /** Share of near-white pixels (specular glare on glossy photos and screens). */
  glareShare: number;
}

export interface DetectedFace {
  /** Box in the pixel coordinates of the upright (EXIF-rotated) input image. */
  box: Box;
  /** Overall face score from detector and mesh (0..1). */
  score: number;
  detectorScore: number;
  meshScore: number;
  /** L2-normalised embedding: 128 values of face-api's recognition net (default), or 1024 of HSE FaceRes (`embedder: 'faceres'`). */
  embedding: Float32Array;
  age: number;
  gender: string;
  genderScore: number;
  /** Human's anti-spoofing model confidence that the face is real (0..1); null when not run (match, embed, age). */
  antispoof: number | null;
  /** Human's liveness model confidence (0..1); null when not run. */
  liveness: number | null;
  /** Head pose in degrees. */
  pose: { yaw: number; pitch: number; roll: number };
  /** Face width in pixels of the upright input image. */
  sizePx: number;
  /** Measured on the largest face only (the one checks use) and only for presentation-attack checks; null otherwise. */
  texture: TextureMeasures | null;
  /** 468 mesh points in input pixel coordinates, flattened x,y; used for frame-to-frame motion. */
  mesh: Float32Array;
}

export interface ImageInfo {
  format: string;
  width: number;
  height: number;
  /** Scale from the analysed (downsized) image back to the upright input. */
  scale: number;
  exifOrientation: number | null;
}

export interface FaceAnalysis {
  image: ImageInfo;
  /** Sorted by face size, largest first. */
  faces: DetectedFace[];
  timings: { decodeMs: number; inferenceMs: number; textureMs: number; totalMs: number };
}

export interface FaceMatchResult {
  verdict: CheckVerdict;
  /** Cosine similarity of the two embeddings (-1..1); null when a face is missing in either image. */
  similarity: number | null;
  threshold: number;
  signals: Signal[];
  model: ModelInfo[];
  timings: { totalMs: number; analyzeMs: [number, number] };
}

export interface LivenessResult {
  verdict: CheckVerdict;
  /** Combined live score 0..1 (higher is more likely a live, bona fide capture). */
  score: number;
  threshold: number;
  signals: Signal[];
  model: ModelInfo[];
  timings: { totalMs: number };
}

export interface AgeResult {
  verdict: CheckVerdict;
  age: number | null;
  low: number | null;
  high: number | null;
  minimumAge: number;
  signals: Signal[];
  model: ModelInfo[];
  timings: { totalMs: number };
}

export interface EmbedResult {
  embedding: Float32Array | null;
  signals: Signal[];
  model: ModelInfo[];
}

/** What the worker receives; images are transferred, not copied. */
export type FaceTask =
  | {
      kind: 'analyze';
      image: Uint8Array;
      mirror?: boolean;
      /** Run anti-spoofing, liveness and texture (only liveness needs them). */ presentationAttack?: boolean;
    }
  /**
   * Several images in one task (one worker): all are decoded at once (libvips runs each decode on its
   * own libuv thread), then the models run on each in turn, so decoding overlaps inference instead of
   * preceding it image by image. `fields` name the images in input errors.
   */
  | { kind: 'analyzeMany'; images: Uint8Array[]; mirrors: boolean[]; fields: string[]; presentationAttack: boolean }
  | { kind: 'info' };

export type FaceTaskResult = FaceAnalysis | FaceAnalysis[] | WorkerInfo;

export interface WorkerInfo {
  models: ModelInfo[];
  loadMs: number;
  backend: string;
  tensors: number;
  wasmBytes: number;
}
