/**
 * How long a flate-bomb PDF (80 KB inflating to 80 MB) stalls the API's event loop during a proof-of-address
 * check: the engine called on the main thread (the baseline, as before the text-documents worker) against
 * the same check through the worker, in one run. Also a document-AI check through the worker.
 *
 *   npm run bench -- pdf-bomb-loop
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { checkProofOfAddress } from '../src/engines/proof-of-address/index.js';
import { createTesseractOcr } from '../src/engines/text/index.js';
import { TEXT_CHECKS } from '../src/modules/checks/proof-of-address/index.js';
import { createResources } from '../src/platform/resources.js';
import { loadConfig } from '../src/config.js';
import { flateBombPdf } from '../test/fixtures/pdf-bomb.js';

async function stall(label: string, run: () => Promise<unknown>): Promise<void> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const t0 = performance.now();
  let outcome = 'ok';
  try {
    await run();
  } catch (err) {
    outcome = `refused: ${(err as Error).message.slice(0, 80)}`;
  }
  h.disable();
  console.log(
    `| ${label} | ${Math.round(performance.now() - t0)} | ${Math.round(h.max / 1e6)} | ${Math.round(h.percentile(99) / 1e6)} | ${outcome} |`,
  );
}

const bomb = flateBombPdf();
console.log(`flate bomb: ${bomb.length} bytes on the wire, 80 MiB inflated\n`);
console.log('| run | wall ms | event-loop max stall ms | p99 ms | outcome |');
console.log('|---|---|---|---|---|');
const ocr = createTesseractOcr();
for (let round = 0; round < 3; round++) {
  await stall('proof of address, engine on the main thread (baseline)', () =>
    checkProofOfAddress(bomb, { subjectName: 'Jane Doe', mime: 'application/pdf', ocr }),
  );
  // A fresh worker each round, as the process's resources would start one.
  const resources = createResources(loadConfig({ NODE_ENV: 'test', MASTER_KEY: '11'.repeat(32) }), null as never);
  const checks = resources.get(TEXT_CHECKS);
  await stall('proof of address, text-documents worker', () =>
    checks.proofOfAddress(bomb, { subjectName: 'Jane Doe', mime: 'application/pdf' }),
  );
  await stall('document AI, text-documents worker', () =>
    checks.documentAi(bomb, [{ name: 'total', anchor: 'Total' }], { mime: 'application/pdf' }),
  );
  await resources.close();
}
await ocr.close();
