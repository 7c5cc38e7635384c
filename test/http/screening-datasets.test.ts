import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, activateTestList } from '../helpers/test-app.js';
import { sandboxList } from '../../src/providers/lists/sandbox-list.js';

/** Screening a data set no list carries is check_unavailable naming it, never a clean no_match. */
let t: TestApp;
before(async () => {
  t = await createTestApp();
  // Production gets one imported list that carries sanctions only.
  const sanctionsOnly = sandboxList()
    .filter((e) => e.datasets.includes('sanctions'))
    .map((e) => ({ ...e, source: 'custom' as const, id: e.id.replace('sandbox:', 'custom:') }));
  await activateTestList(t, 'custom', sanctionsOnly as never, 'custom_csv');
});
after(() => t.close());

test('a requested data set that no active list carries is 422 check_unavailable naming it; a carried one screens', async () => {
  const o = await t.tenant();
  const screen = (body: unknown) => t.call('POST', '/v1/checks/screening', { key: o.productionKey, body });
  const pep = await screen({ name: 'Jane Unlisted', datasets: ['pep'] });
  assert.equal(pep.statusCode, 422, pep.body);
  assert.equal(pep.json().error.code, 'check_unavailable');
  assert.equal(pep.json().error.field, 'datasets');
  assert.match(pep.json().error.message, /pep/);
  const both = await screen({ name: 'Jane Unlisted', datasets: ['sanctions', 'pep'] });
  assert.equal(both.statusCode, 422, 'a journey asking for sanctions and PEP is not answered with sanctions alone');
  const sanctions = await screen({ name: 'Jane Unlisted', datasets: ['sanctions'] });
  assert.equal(sanctions.statusCode, 200, sanctions.body);
  assert.equal(sanctions.json().status, 'no_match');
  // The sandbox's built-in list carries every data set.
  const sandbox = await t.call('POST', '/v1/checks/screening', {
    key: o.sandboxKey,
    body: { name: 'Jane Unlisted', datasets: ['pep', 'adverse_media'] },
  });
  assert.equal(sandbox.statusCode, 200, sandbox.body);
});
