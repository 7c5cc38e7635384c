import { availableParallelism } from 'node:os';
import { createWorkerPool, workerFileUrl, type SerializedError, type WorkerPoolStats } from '../../platform/worker-pool.js';
import type { ModelInfo } from '../signal.js';
import { FaceInputError, type FaceInputReason } from './errors.js';
import { checkEncodedSize, DEFAULT_IMAGE_LIMITS, type ImageLimits } from './image-input.js';
import { decideMatch, describeFaces, primaryFace } from './match-decision.js';
import { decideLiveness, type LivenessThresholds } from './liveness-decision.js';
import { MAX_CHALLENGE_FRAMES, type ChallengeAction } from './challenge.js';
import { decideAge } from './age-decision.js';
import type {
  AgeResult,
  EmbedResult,
  FaceAnalysis,
  FaceEmbedder,
  FaceMatchResult,
  FaceTask,
  FaceTaskResult,
  LivenessResult,
  WorkerInfo,
} from './types.js';

export interface FaceEngineOptions {
  /** Worker threads, each holding its own copy of the models (~230 MB RSS measured). Default: cores, at most 4. */
  poolSize?: number;
  limits?: Partial<ImageLimits>;
  /** A single analysis running longer than this kills its worker (which is restarted). */
  taskTimeoutMs?: number;
  /**
   * With one worker, send a check's images as one task so their decodes overlap inference (default
   * true). `false` sends them one by one, as before; the benchmark uses it as its baseline.
   */
  overlapDecodes?: boolean;
  /** The embedding to match with (types.ts FaceEmbedder). Default `face-api`; `faceres` is the pre-#19 pipeline. */
  embedder?: FaceEmbedder;
}

export interface MatchOptions {
  threshold?: number;
  /** The reference image is a document: several faces there (ghost portrait) are expected, not suspicious. */
  referenceIsDocument?: boolean;
}

export interface LivenessOptions extends Partial<LivenessThresholds> {
  /** The actions the subject was asked for, in order (challenge.ts): frames are then one neutral frame and FRAMES_PER_ACTION per action. */
  challenge?: readonly ChallengeAction[];
}

export interface AgeOptions {
  /** The age the subject must be at least, e.g. 18. */
  minimumAge: number;
}

export interface FaceEngine {
  /** Detection, embedding, age for every face (largest first); anti-spoofing, liveness and texture on the largest. */
  analyze(image: Uint8Array): Promise<FaceAnalysis>;
  /** 1:1: selfie (`a`) against a reference (`b`, a document image or another photo). */
  match(a: Uint8Array, b: Uint8Array, options?: MatchOptions): Promise<FaceMatchResult>;
  /** Presentation-attack detection on a selfie, a short burst of frames (at most 8), or a recorded challenge (options.challenge). */
  liveness(frames: readonly Uint8Array[], options?: LivenessOptions): Promise<LivenessResult>;
  estimateAge(image: Uint8Array, options: AgeOptions): Promise<AgeResult>;
  /** The embedding of the single clear face, for enrolment in a FaceIndex or pgvector; null with signals otherwise. */
  embed(image: Uint8Array): Promise<EmbedResult>;
  /** Model names and versions, load time and tensor memory of one worker (waits for the models). */
  info(): Promise<WorkerInfo>;
  stats(): WorkerPoolStats;
  close(): Promise<void>;
}

export const MAX_LIVENESS_FRAMES = 8;

export function createFaceEngine(options: FaceEngineOptions = {}): FaceEngine {
  const limits: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, ...options.limits };
  const size = options.poolSize ?? Math.max(1, Math.min(4, availableParallelism()));
  const pool = createWorkerPool<FaceTask, FaceTaskResult>({
    file: workerFileUrl(import.meta.url, './face-worker.js'),
    size,
    name: 'face',
    workerData: { limits, embedder: options.embedder ?? 'face-api' },
    taskTimeoutMs: options.taskTimeoutMs ?? 30_000,
    reviveError,
  });
  let models: ModelInfo[] | null = null;

  async function modelInfo(): Promise<ModelInfo[]> {
    models ??= ((await pool.run({ kind: 'info' })) as WorkerInfo).models;
    return models;
  }

  async function analyze(image: Uint8Array, mirror = false, field = 'image', presentationAttack = true): Promise<FaceAnalysis> {
    checkEncodedSize(image, limits, field);
    // Copy before transferring so the caller's Buffer (often a slice of a pooled allocation) stays intact.
    const copy = new Uint8Array(image);
    try {
      return (await pool.run({ kind: 'analyze', image: copy, mirror, presentationAttack }, [copy.buffer])) as FaceAnalysis;
    } catch (err) {
      if (err instanceof FaceInputError && err.field !== field) throw new FaceInputError(err.reason, err.message, field);
      throw err;
    }
  }

  /**
   * Several images of one check. With several workers each image goes to its own worker; with one,
   * they go as one task so the worker decodes them all at once and decoding overlaps inference.
   */
  async function analyzeAll(
    items: { image: Uint8Array; field: string; mirror?: boolean }[],
    presentationAttack: boolean,
  ): Promise<FaceAnalysis[]> {
    if (size > 1 || items.length === 1 || options.overlapDecodes === false)
      return Promise.all(items.map((it) => analyze(it.image, it.mirror ?? false, it.field, presentationAttack)));
    for (const it of items) checkEncodedSize(it.image, limits, it.field);
    const images = items.map((it) => new Uint8Array(it.image));
    return (await pool.run(
      {
        kind: 'analyzeMany',
        images,
        mirrors: items.map((it) => it.mirror ?? false),
        fields: items.map((it) => it.field),
        presentationAttack,
      },
      images.map((im) => im.buffer),
    )) as FaceAnalysis[];
  }

  return {
    analyze: (image) => analyze(image),

    async match(a, b, matchOptions = {}) {
      const started = performance.now();
      const [analyses, model] = await Promise.all([
        analyzeAll(
          [
            { image: a, field: 'selfie' },
            { image: b, field: 'reference' },
          ],
          false,
        ),
        modelInfo(),
      ]);
      const [left, right] = [analyses[0]!, analyses[1]!];
      const decision = decideMatch(left, right, matchOptions);
      return {
        ...decision,
        model,
        timings: { totalMs: performance.now() - started, analyzeMs: [left.timings.totalMs, right.timings.totalMs] },
      };
    },

    async liveness(frames, livenessOptions = {}) {
      const { challenge, ...thresholds } = livenessOptions;
      const max = challenge ? MAX_CHALLENGE_FRAMES : MAX_LIVENESS_FRAMES;
      if (frames.length === 0) throw new FaceInputError('image_empty', 'at least one frame is required', 'frames');
      if (frames.length > max) throw new FaceInputError('too_many_frames', `at most ${max} frames`, 'frames');
      const started = performance.now();
      const [analyses, model] = await Promise.all([
        analyzeAll(
          frames.map((image, i) => ({ image, field: `frames[${i}]` })),
          true,
        ),
        modelInfo(),
      ]);
      const decision = decideLiveness(analyses, thresholds, challenge ? { actions: challenge } : undefined);
      return { ...decision, model, timings: { totalMs: performance.now() - started } };
    },

    async estimateAge(image, ageOptions) {
      const started = performance.now();
      // The mirrored copy is a second, independent look for the same face: their spread widens the band.
      const [analyses, model] = await Promise.all([
        analyzeAll(
          [
            { image, field: 'image' },
            { image, field: 'image', mirror: true },
          ],
          false,
        ),
        modelInfo(),
      ]);
      const [upright, mirrored] = [analyses[0]!, analyses[1]!];
      const decision = decideAge(upright, mirrored, ageOptions.minimumAge);
      return { ...decision, model, timings: { totalMs: performance.now() - started } };
    },

    async embed(image) {
      const [analysis, model] = await Promise.all([analyze(image, false, 'image', false), modelInfo()]);
      const signals = describeFaces(analysis, 'image', false);
      const face = primaryFace(analysis);
      const usable = face !== null && analysis.faces.length === 1;
      return { embedding: usable ? face.embedding : null, signals, model };
    },

    info: async () => (await pool.run({ kind: 'info' })) as WorkerInfo,
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

function reviveError(error: SerializedError): Error {
  if (error.name === 'FaceInputError') {
    const details = (error.details ?? {}) as { reason?: FaceInputReason; field?: string };
    return new FaceInputError(details.reason ?? 'image_decode_failed', error.message, details.field ?? 'image');
  }
  const revived = new Error(`face worker: ${error.message}`);
  revived.name = error.name;
  return revived;
}
