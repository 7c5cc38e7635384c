import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelInfo } from '../signal.js';
import { CHIP_SIZE } from './align.js';
import { findPackageDir } from './human-loader.js';

/**
 * Loads `@vladmandic/face-api`'s face recognition net (dlib-style ResNet, 128 values) next to Human in
 * the same worker. Only that net is used: Human finds the face and its mesh (face-api's detectors miss
 * most tightly cropped faces), align.ts makes the chip, this net describes it. Both libraries run on one
 * tfjs 4.22 instance: face-api's node-wasm build requires `@tensorflow/tfjs` and
 * `@tensorflow/tfjs-backend-wasm`, which resolve to the same tfjs-core and wasm backend Human set up
 * (loadHuman must run first: it selects the backend and its local wasm path). Weights are read from
 * the package's model/ folder (`loadFromDisk`): nothing is fetched.
 */

interface Tensor3D {
  dispose(): void;
}

interface FaceApi {
  tf: {
    tensor3d(values: Float32Array, shape: [number, number, number], dtype: 'float32'): Tensor3D;
    getBackend(): string;
  };
  nets: {
    faceRecognitionNet: {
      loadFromDisk(dir: string): Promise<void>;
      computeFaceDescriptor(input: Tensor3D): Promise<Float32Array | Float32Array[]>;
    };
  };
}

export interface LoadedRecognizer {
  /** 128-value descriptor (not normalised) of a 150 × 150 RGB chip (float 0..255, see align.ts). */
  describe(chip: Float32Array): Promise<Float32Array>;
  models: ModelInfo[];
}

/** Identity of the embedding: net and alignment together (embeddings of another pair are not comparable). */
export const RECOGNIZER_MODEL_NAME = 'face-api/model/face_recognition_model+human-mesh-5pt-align-v1';

export async function loadRecognizer(): Promise<LoadedRecognizer> {
  const dir = findPackageDir('@vladmandic/face-api', 'dist/face-api.node-wasm.js');
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const require = createRequire(import.meta.url);
  const faceapi = require(join(dir, 'dist', 'face-api.node-wasm.js')) as FaceApi;
  const backend = faceapi.tf.getBackend();
  if (backend !== 'wasm') throw new Error(`face engine: face-api sees the ${backend} backend, expected Human's wasm backend`);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(join(dir, 'model'));
  const net = faceapi.nets.faceRecognitionNet;
  return {
    async describe(chip) {
      const input = faceapi.tf.tensor3d(chip, [CHIP_SIZE, CHIP_SIZE, 3], 'float32');
      try {
        const out = await net.computeFaceDescriptor(input);
        return Array.isArray(out) ? out[0]! : out;
      } finally {
        input.dispose();
      }
    },
    models: [
      { name: '@vladmandic/face-api', version },
      { name: RECOGNIZER_MODEL_NAME, version },
    ],
  };
}
