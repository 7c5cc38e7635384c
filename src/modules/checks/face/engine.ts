import { createFaceEngine, type FaceEngine } from '../../../engines/face/index.js';

/**
 * One face engine per process: its workers each load ~230 MB of models, so every module, job and
 * pipeline shares this one. Created on first use (a process that never checks a face pays nothing).
 */
let engine: FaceEngine | null = null;
let users = 0;
/** FACE_POOL_SIZE, as the holders pass it from the configuration (a process has one configuration). */
let poolSize = 1;

export function getFaceEngine(): FaceEngine {
  engine ??= createFaceEngine({ poolSize });
  return engine;
}

/** Terminates the workers; the next getFaceEngine() starts a new engine. */
export async function closeFaceEngine(): Promise<void> {
  const e = engine;
  engine = null;
  if (e) await e.close();
}

/**
 * Counts the apps (or workers) that use the engine so closing one Fastify instance does not pull the
 * engine from under another in the same process (tests, server + in-process worker).
 */
export function retainFaceEngine(size = poolSize): () => Promise<void> {
  poolSize = size;
  users++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--users === 0) await closeFaceEngine();
  };
}
