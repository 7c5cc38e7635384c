import type { FastifyInstance } from 'fastify';
import { createTesseractOcr, type OcrEngine } from '../../engines/text/index.js';

let shared: OcrEngine | null = null;
let users = 0;

/**
 * One Tesseract worker per process, shared by the document checks (proof of address, document AI):
 * a worker costs ~0.5 s to start and ~100 MB, so one per request or per module would waste both.
 * It is created lazily by the engine on the first scanned page, and closed when the last app using it closes.
 */
export function sharedOcr(app: FastifyInstance): OcrEngine {
  shared ??= createTesseractOcr();
  users++;
  const engine = shared;
  app.addHook('onClose', async () => {
    users--;
    if (users === 0 && shared === engine) {
      shared = null;
      await engine.close();
    }
  });
  return engine;
}
