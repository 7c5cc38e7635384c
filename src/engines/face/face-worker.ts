import sharp from 'sharp';
import { workerData } from 'node:worker_threads';
import type { TransferListItem } from 'node:worker_threads';
import { serveWorkerTasks } from '../../platform/worker-pool.js';
import { loadHuman, type HumanFace, type LoadedHuman } from './human-loader.js';
import { decodeImage, DEFAULT_IMAGE_LIMITS, type DecodedImage, type ImageLimits } from './image-input.js';
import { FaceInputError } from './errors.js';
import { measureTexture } from './texture.js';
import type { Box, DetectedFace, FaceAnalysis, FaceTask, FaceTaskResult } from './types.js';

/**
 * Worker entry: models load once per worker, then every task decodes its image(s) here (never on the
 * main thread), runs Human and measures texture. One task at a time per worker (the pool's contract);
 * a task of several images decodes them all at once and runs the models on each in turn.
 */

// libvips would otherwise start one thread per core in every worker; the pool already owns the cores.
sharp.concurrency(1);
sharp.cache(false);

const limits: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, ...((workerData as { limits?: Partial<ImageLimits> } | null)?.limits ?? {}) };
const loading: Promise<LoadedHuman> = loadHuman();
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
async function infer(loaded: LoadedHuman, { decoded, decodeMs }: TimedDecode, pad: boolean): Promise<FaceAnalysis> {
  const decodedAt = performance.now();
  const { human } = loaded;
  const tensor = human.tf.tensor(decoded.rgb, [1, decoded.height, decoded.width, 3], 'int32');
  let raw: HumanFace[];
  try {
    // Human merges per-call config into its instance config, so both states are always set explicitly.
    const result = await human.detect(tensor, { face: { antispoof: { enabled: pad }, liveness: { enabled: pad } } });
    if (result.error) throw new Error(`face model failed: ${result.error}`);
    raw = result.face;
  } finally {
    human.tf.dispose(tensor);
  }
  const inferredAt = performance.now();
  const usable = raw.filter((f) => f.embedding && f.embedding.length > 0);
  usable.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const faces: DetectedFace[] = [];
  for (const [index, face] of usable.entries()) {
    // Texture is measured at analysis resolution on the face the checks use (the largest).
    const texture = pad && index === 0 ? await measureTexture(decoded.rgb, decoded.width, decoded.height, face.box) : null;
    faces.push(toDetectedFace(face, decoded.info.scale, texture, pad));
  }
  const done = performance.now();
  return {
    image: decoded.info,
    faces,
    timings: { decodeMs, inferenceMs: inferredAt - decodedAt, textureMs: done - inferredAt, totalMs: decodeMs + (done - decodedAt) },
  };
}

function toDetectedFace(face: HumanFace, scale: number, texture: DetectedFace['texture'], pad: boolean): DetectedFace {
  const box = face.box.map((v) => v * scale) as Box;
  const source = face.embedding ?? [];
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
