import type { FastifyInstance } from 'fastify';
import { createTesseractOcr, type OcrEngine } from '../../../engines/text/index.js';

let shared: OcrEngine | null = null;
let users = 0;

/**
 * One Tesseract worker per process, shared by the document checks (proof of address, document AI):
 * a worker costs ~0.5 s to start and ~100 MB, so one per request or per module would waste both.
 * It is created lazily by the engine on the first scanned page, and closed when the last app using it closes.
 */
export function sharedOcr(app: FastifyInstance): OcrEngine {
  const { engine, release } = retainOcr();
  app.addHook('onClose', release);
  return engine;
}

/**
 * The shared engine for code that runs inside a holder's lifetime (the session pipeline runs in a
 * job runner whose process retains the engine, see runtime.ts), without counting as a user.
 */
export function getSharedOcr(): OcrEngine {
  shared ??= createTesseractOcr();
  return shared;
}

/** The shared engine for a user outside Fastify (the session pipeline in a job runner); release when done. */
export function retainOcr(): { engine: OcrEngine; release: () => Promise<void> } {
  shared ??= createTesseractOcr();
  users++;
  const engine = shared;
  let released = false;
  return {
    engine,
    release: async () => {
      if (released) return;
      released = true;
      users--;
      if (users === 0 && shared === engine) {
        shared = null;
        await engine.close();
      }
    },
  };
}
