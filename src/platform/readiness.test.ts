import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readiness } from './readiness.js';

test('readiness: nothing registered is ready; a warming component holds it back until it reports ready or degraded', async () => {
  const r = new Readiness();
  assert.deepEqual(r.report(), { ready: true, components: {} });
  await r.whenReady();

  const indexes = r.register('wallet_indexes');
  const model = r.register('face_model');
  assert.deepEqual(r.report(), { ready: false, components: { face_model: 'warming', wallet_indexes: 'warming' } });
  let resolved = false;
  const waiting = r.whenReady().then(() => (resolved = true));

  indexes.ready();
  await new Promise((res) => setImmediate(res));
  assert.equal(resolved, false, 'one component still warming');
  assert.equal(r.report().ready, false);

  model.degraded();
  await waiting;
  assert.deepEqual(r.report(), { ready: true, components: { face_model: 'degraded', wallet_indexes: 'ready' } });

  r.register('wallet_indexes');
  assert.equal(r.report().ready, false, 'registering again warms it again');
});
