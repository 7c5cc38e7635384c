import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { flateBombPdf } from '../fixtures/pdf-bomb.js';
import { TEXT_CHECKS } from '../../src/modules/checks/proof-of-address/index.js';

/**
 * A flate-bomb PDF (80 KB that inflates to 80 MB) sent to proof of address and document AI is parsed in
 * the text-documents worker, not on the event loop: the API keeps answering other requests meanwhile,
 * and the answer is a check or a 4xx, never a 5xx. (Stall figures are measured in bench/, not asserted here.)
 */
let t: TestApp;
let o: Tenant;
before(async () => {
  t = await createTestApp();
  o = await t.tenant();
});
after(() => t.close());

test('a flate bomb is parsed off the event loop and answered without a 5xx', async () => {
  const bomb = flateBombPdf().toString('base64');
  let done = false;
  const checks = Promise.all([
    t.call('POST', '/v1/checks/proof-of-address', { key: o.sandboxKey, body: { document: bomb, subject_name: 'Jane Doe' } }),
    t.call('POST', '/v1/checks/document-ai', { key: o.sandboxKey, body: { document: bomb, fields: [{ name: 'total', anchor: 'Total' }] } }),
  ]).finally(() => (done = true));
  // Other requests are answered while the bomb is being parsed (on the main thread they waited for it).
  let pings = 0;
  while (!done) {
    if ((await t.call('GET', '/v1/lists/blocklist/entries', { key: o.sandboxKey })).statusCode === 200) pings++;
    await new Promise((res) => setTimeout(res, 20));
  }
  const [poa, docai] = await checks;
  for (const r of [poa, docai]) assert.ok(r.statusCode < 500, `${r.statusCode} ${r.body.slice(0, 200)}`);
  assert.ok(pings >= 1, `${pings} other requests answered while the bomb was parsed`);
  // Both documents were parsed by the text-documents worker, not by this thread.
  assert.ok(
    t.resources.get(TEXT_CHECKS).stats().completed + t.resources.get(TEXT_CHECKS).stats().failed >= 2,
    JSON.stringify(t.resources.get(TEXT_CHECKS).stats()),
  );
});
