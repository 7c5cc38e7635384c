import sharp from 'sharp';
import { workerData } from 'node:worker_threads';
import type { TransferListItem } from 'node:worker_threads';
import { serveWorkerTasks } from '../../platform/worker-pool.js';
import { loadHuman, type HumanFace, type LoadedHuman } from './human-loader.js';
import { decodeImage, DEFAULT_IMAGE_LIMITS, type DecodedImage, type ImageLimits } from './image-input.js';
import { FaceInputError } from './errors.js';
import { measureTexture } from './texture.js';
import { alignedChip } from './align.js';
import { loadRecognizer, type LoadedRecognizer } from './recognizer-loader.js';
import type { Box, DetectedFace, FaceAnalysis, FaceEmbedder, FaceTask, FaceTaskResult } from './types.js';

/**
 * Worker entry: models load once per worker, then every task decodes its image(s) here (never on the
 * main thread), runs Human and measures texture. One task at a time per worker (the pool's contract);
 * a task of several images decodes them all at once and runs the models on each in turn.
 */

// libvips would otherwise start one thread per core in every worker; the pool already owns the cores.
sharp.concurrency(1);
sharp.cache(false);

const data = (workerData ?? {}) as { limits?: Partial<ImageLimits>; embedder?: FaceEmbedder };
const limits: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, ...(data.limits ?? {}) };
const embedder: FaceEmbedder = data.embedder ?? 'face-api';

interface Loaded {
  human: LoadedHuman['human'];
  recognizer: LoadedRecognizer | null;
  models: LoadedHuman['models'];
  loadMs: number;
}

async function load(): Promise<Loaded> {
  const started = performance.now();
  const loadedHuman = await loadHuman();
  const recognizer = embedder === 'face-api' ? await loadRecognizer() : null;
  return {
    human: loadedHuman.human,
    recognizer,
    models: [...loadedHuman.models, ...(recognizer?.models ?? [])],
    loadMs: performance.now() - started,
  };
}

/**
 * Small images (short side under SMALL_IMAGE_PX: ID-photo crops, thumbnails, tightly cropped faces) are
 * shown to the detector upscaled to at least UPSCALE_MIN_PX on the short side inside a black border of
 * BORDER_SHARE of the long side: Human's detector misses faces that fill the frame, and its mesh is
 * unstable on faces of a few dozen pixels (DEPENDENCIES.md: faces not found 1.6 % → 0.1 % on the real set).
 * A larger image gets the same second look only when the first finds no face.
 */
const SMALL_IMAGE_PX = 400;
const UPSCALE_MIN_PX = 112;
const BORDER_SHARE = 0.25;
/**
 * The longest side the upscaled frame may reach: a thin strip (4000 × 3 px, decoded at 1024 × 1) would otherwise be
 * scaled ×112 to a canvas of tens of gigabytes. No face fits in such a strip; capped, it is simply found faceless.
 */
const FRAMED_MAX_SIDE = 2048;
const loading: Promise<Loaded> = load();
// Keep an unhandled load failure from killing the thread before a task can report it.
loading.catch(() => undefined);

serveWorkerTasks<FaceTask, FaceTaskResult>(async (task) => {
  const loaded = await loading;
  if (task.kind === 'info') {
    const memory = loaded.human.tf.memory();
    return {
      result: {
        models: loaded.models,
        loadMs: loaded.loadMs,
        backend: loaded.human.tf.getBackend(),
        tensors: memory.numTensors,
        wasmBytes: memory.numBytes,
      },
    };
  }
  if (task.kind === 'analyzeMany') {
    // Every decode starts now; the models then take the images in order as their decodes finish.
    const decodes = task.images.map((image, i) => timedDecode(image, task.mirrors[i] ?? false, task.fields[i] ?? 'image'));
    decodes.forEach((d) => d.catch(() => undefined)); // a failure is reported once, by the await below
    const analyses: FaceAnalysis[] = [];
    for (const decoding of decodes) analyses.push(await infer(loaded, await decoding, task.presentationAttack));
    return { result: analyses, transfer: analyses.flatMap(transferables) };
  }
  const analysis = await infer(loaded, await timedDecode(task.image, task.mirror ?? false, 'image'), task.presentationAttack ?? true);
  return { result: analysis, transfer: transferables(analysis) };
});

function transferables(analysis: FaceAnalysis): TransferListItem[] {
  return analysis.faces.flatMap((face) => [face.embedding.buffer as ArrayBuffer, face.mesh.buffer as ArrayBuffer]);
}

interface TimedDecode {
  decoded: DecodedImage;
  decodeMs: number;
}

async function timedDecode(image: Uint8Array, mirror: boolean, field: string): Promise<TimedDecode> {
  const started = performance.now();
  try {
    return { decoded: await decodeImage(image, limits, mirror), decodeMs: performance.now() - started };
  } catch (err) {
    if (err instanceof FaceInputError && err.field !== field) throw new FaceInputError(err.reason, err.message, field);
    throw err;
  }
}

/** Models and texture on a decoded image. `totalMs` is this image's own work: its decode plus its inference. */
/** Where the detector's pixels came from: detector point p is image point (p − border) / scale. */
interface DetectionFrame {
  scale: number;
  border: number;
}

async function detect(
  loaded: Loaded,
  decoded: DecodedImage,
  pad: boolean,
  framed: boolean,
): Promise<{ faces: HumanFace[]; frame: DetectionFrame }> {
  const { human } = loaded;
  let pixels = decoded.rgb;
  let width = decoded.width;
  let height = decoded.height;
  const frame: DetectionFrame = { scale: 1, border: 0 };
  if (framed) {
    frame.scale = Math.max(1, Math.min(UPSCALE_MIN_PX / Math.min(width, height), FRAMED_MAX_SIDE / Math.max(width, height)));
    const w = Math.round(width * frame.scale);
    const h = Math.round(height * frame.scale);
    frame.border = Math.round(BORDER_SHARE * Math.max(w, h));
    const b = frame.border;
    const out = await sharp(decoded.rgb, { raw: { width, height, channels: 3 } })
      .resize(w, h, { fit: 'fill' })
      .extend({ top: b, bottom: b, left: b, right: b, background: { r: 0, g: 0, b: 0 } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    pixels = out.data;
    width = out.info.width;
    height = out.info.height;
  }
  const tensor = human.tf.tensor(pixels, [1, height, width, 3], 'int32');
  try {
    // Human merges per-call config into its instance config, so both states are always set explicitly.
    const result = await human.detect(tensor, { face: { antispoof: { enabled: pad }, liveness: { enabled: pad } } });
    if (result.error) throw new Error(`face model failed: ${result.error}`);
    const faces = result.face.filter((f) => f.embedding && f.embedding.length > 0 && (!loaded.recognizer || f.mesh.length >= 468));
    return { faces: faces.map((f) => toImageFrame(f, frame)), frame };
  } finally {
    human.tf.dispose(tensor);
  }
}

/** Box and mesh of a face found on the framed copy, in the decoded image's pixels. */
function toImageFrame(face: HumanFace, { scale, border }: DetectionFrame): HumanFace {
  if (scale === 1 && border === 0) return face;
  const f = (v: number): number => (v - border) / scale;
  return {
    ...face,
    box: [f(face.box[0]), f(face.box[1]), face.box[2] / scale, face.box[3] / scale],
    mesh: face.mesh.map((p) => [f(p[0]), f(p[1]), p[2]] as [number, number, number?]),
  };
}

async function infer(loaded: Loaded, { decoded, decodeMs }: TimedDecode, pad: boolean): Promise<FaceAnalysis> {
  const decodedAt = performance.now();
  // The faceres-only (legacy) embedder keeps the detector input exactly as it was.
  const small = loaded.recognizer !== null && Math.min(decoded.width, decoded.height) < SMALL_IMAGE_PX;
  let { faces: raw } = await detect(loaded, decoded, pad, small);
  if (raw.length === 0 && loaded.recognizer && !small) raw = (await detect(loaded, decoded, pad, true)).faces;
  raw.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const embeddings: (Float32Array | null)[] = [];
  for (const face of raw) embeddings.push(loaded.recognizer ? await describe(loaded.recognizer, decoded, face) : null);
  const usable = raw.filter((_, i) => !loaded.recognizer || embeddings[i] !== null);
  const usableEmbeddings = embeddings.filter((e, i) => !loaded.recognizer || embeddings[i] !== null);
  const inferredAt = performance.now();
  const faces: DetectedFace[] = [];
  for (const [index, face] of usable.entries()) {
    // Texture is measured at analysis resolution on the face the checks use (the largest).
    const texture =
      pad && index === 0 ? await measureTexture(decoded.rgb, decoded.width, decoded.height, face.box, decoded.info.scale) : null;
    faces.push(toDetectedFace(face, decoded.info.scale, texture, pad, usableEmbeddings[index] ?? null));
  }
  const done = performance.now();
  return {
    image: decoded.info,
    faces,
    timings: { decodeMs, inferenceMs: inferredAt - decodedAt, textureMs: done - inferredAt, totalMs: decodeMs + (done - decodedAt) },
  };
}

/** face-api's descriptor of the face's aligned chip; null when the mesh cannot be aligned. */
async function describe(recognizer: LoadedRecognizer, decoded: DecodedImage, face: HumanFace): Promise<Float32Array | null> {
  const mesh = new Float32Array(face.mesh.length * 2);
  face.mesh.forEach((p, i) => {
    mesh[i * 2] = p[0];
    mesh[i * 2 + 1] = p[1];
  });
  const chip = alignedChip(decoded.rgb, decoded.width, decoded.height, mesh);
  return chip ? recognizer.describe(chip) : null;
}

function toDetectedFace(
  face: HumanFace,
  scale: number,
  texture: DetectedFace['texture'],
  pad: boolean,
  descriptor: Float32Array | null,
): DetectedFace {
  const box = face.box.map((v) => v * scale) as Box;
  const source = descriptor ?? face.embedding ?? [];
  const embedding = new Float32Array(source.length);
  let norm = 0;
  for (const v of source) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < source.length; i++) embedding[i] = source[i]! / norm;
  const mesh = new Float32Array(face.mesh.length * 2);
  face.mesh.forEach((p, i) => {
    mesh[i * 2] = p[0] * scale;
    mesh[i * 2 + 1] = p[1] * scale;
  });
  const angle = face.rotation?.angle;
  const deg = (r: number | undefined): number => Math.round((((r ?? 0) * 180) / Math.PI) * 10) / 10;
  return {
    box,
    score: face.score,
    detectorScore: face.boxScore,
    meshScore: face.faceScore,
    embedding,
    age: face.age ?? 0,
    gender: face.gender ?? 'unknown',
    genderScore: face.genderScore ?? 0,
    antispoof: pad ? (face.real ?? 0) : null,
    liveness: pad ? (face.live ?? 0) : null,
    pose: { yaw: deg(angle?.yaw), pitch: deg(angle?.pitch), roll: deg(angle?.roll) },
    sizePx: box[2],
    texture,
    mesh,
  };
}
