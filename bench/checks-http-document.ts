// Latency of POST /v1/checks/document through the HTTP stack next to readDocument alone, and how
// long the event loop stalls meanwhile (the document engine runs part of its work on the calling thread).
// Usage: npx tsx bench/checks-http-document.ts [iterations=8]   (TEST_DATABASE_URL for PostgreSQL)
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createTestApp } from '../test/helpers/test-app.js';
import { sharedDataDir } from '../test/fixtures/documents/shared-data.js';
import { renderDocument } from '../test/fixtures/documents/render.js';
import { ANNA } from '../test/fixtures/documents/specimen-mrz.js';
import { readDocument, shutdownDocumentEngine } from '../src/engines/document/read-document.js';
import { percentile, lagProbe } from './lib/stats.js';

const N = Number(process.argv[2] ?? 8);
const data = sharedDataDir();
const t = await createTestApp();
const o = await t.tenant({ rateLimitPerMinute: 1_000_000 });
const inputs: [string, Buffer][] = [['rendered TD3 passport (1500×1056 PNG)', await renderDocument({ kind: 'td3', person: ANNA })]];
if (data) inputs.push(['Utopia specimen photo (passport-td3.jpg)', readFileSync(`${data}/mrz/passporteye_utopia_images/passport-td3.jpg`)]);

const pct = percentile;
console.log(
  `db=${t.db.kind} iterations=${N} load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(
  '| input | engine p50 / p99 ms | HTTP p50 / p99 ms | overhead p50 ms | event-loop stall max ms, engine on the main thread / HTTP (worker pool) |',
);
console.log('|---|---|---|---|---|');
for (const [name, image] of inputs) {
  const eng: number[] = [];
  const http: number[] = [];
  let lagMax = 0;
  let engineLagMax = 0;
  for (let i = 0; i < N + 1; i++) {
    const engineProbe = i >= 1 ? lagProbe() : null;
    let s = performance.now();
    await readDocument(image, { acceptSpecimens: true });
    const e = performance.now() - s;
    if (engineProbe) engineLagMax = Math.max(engineLagMax, engineProbe());
    s = performance.now();
    // The stall is measured during the HTTP call only (the engine-alone call may run on this thread).
    const probe = i >= 1 ? lagProbe() : null;
    const res = await t.call('POST', '/v1/checks/document', { key: o.sandboxKey, body: { front: image.toString('base64') } });
    const h = performance.now() - s;
    if (probe) lagMax = Math.max(lagMax, probe());
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    if (i >= 1) {
      eng.push(e);
      http.push(h);
    } // one warm-up round (OCR workers start)
  }
  console.log(
    `| ${name} | ${pct(eng, 50).toFixed(0)} / ${pct(eng, 99).toFixed(0)} | ${pct(http, 50).toFixed(0)} / ${pct(http, 99).toFixed(0)} | ${(pct(http, 50) - pct(eng, 50)).toFixed(0)} | ${engineLagMax.toFixed(0)} / ${lagMax.toFixed(0)} |`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await t.close();
await shutdownDocumentEngine(); // the engine-alone runs started OCR workers on this thread
