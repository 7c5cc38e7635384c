import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { join, resolve, sep } from 'node:path';
import type { ModelInfo } from '../signal.js';

/**
 * Loads @vladmandic/human on the tfjs WebAssembly backend inside a worker thread. Runs once per worker.
 *
 * Why it looks like this (see /work/shared/DEPENDENCIES.md):
 * - the package's `exports` map is malformed and a plain import resolves the tfjs-node build, whose
 *   install needs the internet; so the node-wasm bundle is required by absolute path;
 * - its model loader uses `fetch`, which cannot read file:// in Node 20; so models get an http-looking
 *   base URL on a reserved `.invalid` host and a fetch wrapper answers those URLs from the package's
 *   models/ folder. Anything else fetched is refused: nothing is downloaded at run time;
 * - the face mesh stays on: without it the detector reported a false face on a non-face image.
 */

// Minimal structural view of the parts of Human we use; the bundle's own .d.ts is not reachable
// through the broken exports map.
export interface HumanFace {
  score: number;
  boxScore: number;
  faceScore: number;
  box: [number, number, number, number];
  mesh: [number, number, number?][];
  age?: number;
  gender?: string;
  genderScore?: number;
  embedding?: number[];
  real?: number;
  live?: number;
  rotation?: { angle: { roll: number; yaw: number; pitch: number } } | null;
}

export interface HumanTensor {
  dispose(): void;
}

export interface HumanInstance {
  version: string;
  load(): Promise<void>;
  detect(input: HumanTensor, config?: object): Promise<{ face: HumanFace[]; error?: string | null }>;
  tf: {
    tensor(values: Uint8Array | Int32Array, shape: number[], dtype: 'int32'): HumanTensor;
    ready(): Promise<void>;
    getBackend(): string;
    memory(): { numTensors: number; numBytes: number };
    dispose(t: HumanTensor): void;
  };
}

export interface LoadedHuman {
  human: HumanInstance;
  models: ModelInfo[];
  loadMs: number;
}

const MODEL_ORIGIN = 'http://verity-models.invalid/';
const MODEL_FILES = ['blazeface', 'facemesh', 'faceres', 'antispoof', 'liveness'] as const;

export function findPackageDir(name: string, probe: string): string {
  const require = createRequire(import.meta.url);
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = join(base, name);
    if (existsSync(join(dir, probe))) return dir;
  }
  throw new Error(`face engine: package ${name} not found (needs ${probe})`);
}

function installModelFetch(modelsDir: string): void {
  const root = resolve(modelsDir) + sep;
  const serve = async (input: unknown): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : (input as Request).url;
    if (!url.startsWith(MODEL_ORIGIN)) throw new Error(`face engine: refusing to fetch ${url} (models are served from disk only)`);
    const file = resolve(modelsDir, decodeURIComponent(new URL(url).pathname.slice(1)));
    if (!file.startsWith(root)) throw new Error(`face engine: model path escapes models folder: ${url}`);
    const body = await readFile(file);
    const type = file.endsWith('.json') ? 'application/json' : 'application/octet-stream';
    return new Response(body, { status: 200, headers: { 'content-type': type } });
  };
  globalThis.fetch = serve as typeof fetch;
}

export async function loadHuman(): Promise<LoadedHuman> {
  const started = performance.now();
  const humanDir = findPackageDir('@vladmandic/human', 'dist/human.node-wasm.js');
  const wasmDir = join(findPackageDir('@tensorflow/tfjs-backend-wasm', 'dist/tfjs-backend-wasm.wasm'), 'dist') + sep;
  installModelFetch(join(humanDir, 'models'));
  const require = createRequire(import.meta.url);
  const bundle = require(join(humanDir, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanInstance };
  const human = new bundle.Human({
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: MODEL_ORIGIN,
    debug: false,
    async: false,
    warmup: 'none',
    cacheModels: false,
    // Caching reuses the previous frame's results when inputs look alike: wrong for unrelated checks.
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      // rotation off: rolling faces upright before the embedding lowered same/different separation on the
      // labelled set (ROC AUC 0.984 with it, 0.992 without); the mesh-fitted crop already aligns the face.
      detector: { rotation: false, maxDetected: 5, minConfidence: 0.3, minSize: 24, return: false },
      mesh: { enabled: true, keepInvalid: false },
      iris: { enabled: false },
      attention: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: true, minConfidence: 0.1 },
      antispoof: { enabled: true },
      liveness: { enabled: true },
    },
  });
  await human.load();
  await human.tf.ready();
  const backend = human.tf.getBackend();
  if (backend !== 'wasm') throw new Error(`face engine: expected the wasm backend, got ${backend}`);
  await warmUp(human, join(humanDir, 'dist', 'human.node-wasm.js'));
  const models: ModelInfo[] = [
    { name: '@vladmandic/human', version: human.version },
    ...MODEL_FILES.map((m) => ({ name: `human/models/${m}.json`, version: human.version })),
  ];
  return { human, models, loadMs: performance.now() - started };
}

/**
 * One pass on Human's own embedded warm-up portrait (a base64 JPEG inside the bundle) so every face
 * model's wasm kernels are compiled before the first real check; a face-less image would only warm
 * the detector. Falls back to a synthetic pattern if a future bundle no longer carries the sample.
 */
async function warmUp(human: HumanInstance, bundlePath: string): Promise<void> {
  const source = await readFile(bundlePath, 'utf8');
  const match = /`\s*(\/9j\/[A-Za-z0-9+/=\s]+)`/.exec(source);
  let pixels: Uint8Array;
  let width = 256;
  let height = 256;
  if (match?.[1]) {
    const jpeg = Buffer.from(match[1].replace(/\s+/g, ''), 'base64');
    const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    pixels = data;
    width = info.width;
    height = info.height;
  } else {
    pixels = new Uint8Array(width * height * 3).map((_, i) => (i * 37) % 255);
  }
  const tensor = human.tf.tensor(pixels, [1, height, width, 3], 'int32');
  try {
    await human.detect(tensor);
  } finally {
    human.tf.dispose(tensor);
  }
}
