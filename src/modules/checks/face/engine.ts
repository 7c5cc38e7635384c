import { createFaceEngine, type FaceEngine } from '../../../engines/face/index.js';
import { defineResource } from '../../../platform/resources.js';

/**
 * The process's face engine: its workers each load ~230 MB of models, so every module, job and
 * pipeline shares this one (`resources.get(FACE_ENGINE)`). Started on first use: a process that never
 * checks a face pays nothing.
 */
export const FACE_ENGINE = defineResource<FaceEngine>(
  'face engine',
  (r) => createFaceEngine({ poolSize: r.config.checks.face.poolSize }),
  (engine) => engine.close(),
);
