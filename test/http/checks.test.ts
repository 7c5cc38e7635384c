import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { recordCheck } from '../../src/modules/checks/kernel/record-check.js';
import { decodeUpload, IMAGE_TYPES } from '../../src/modules/checks/kernel/media.js';
import { Sealer } from '../../src/platform/crypto.js';
import type { Tenant } from '../helpers/test-app.js';

let t: TestApp;
let sealer: Sealer;
before(async () => {
  t = await createTestApp();
  sealer = new Sealer(t.config.masterKey);
});
after(() => t.close());

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function make(o: Tenant) {
  return recordCheck({
    ctx: { ...o.ctx(), actor: { type: 'api_key', id: 'key_x' } },
    sealer,
    type: 'liveness',
    subjectReference: 'cus_42',
    outcome: {
      status: 'passed',
      score: 0.91,
      reasons: [],
      signals: [{ name: 'antispoof', value: 0.91, passed: true }],
      model: [{ name: 'm', version: '1' }],
      timings: { total: 12.3 },
      result: { note: 'Jane Doe' },
    },
    media: [{ kind: 'selfie', contentType: 'image/png', data: png }],
  });
}

routeSecurityTests('getCheck', () => t, {
  method: 'GET',
  url: (id) => `/v1/checks/${id}`,
  scope: 'checks:read',
  create: async (_t, o) => (await make(o)).id,
});
routeSecurityTests('listChecks', () => t, { method: 'GET', url: () => '/v1/checks', scope: 'checks:read' });

test('a recorded check is stored sealed, billed once, audited, evented and retrievable', async () => {
  const o = await t.tenant();
  const c = await make(o);
  assert.match(c.id, /^chk_/);
  const got = (await t.call('GET', `/v1/checks/${c.id}`, { key: o.sandboxKey })).json();
  assert.equal(got.status, 'passed');
  assert.equal(got.result.note, 'Jane Doe');
  assert.equal(got.media[0].bytes, png.length);
  const [row] = await t.db.query<{ result_sealed: string }>('SELECT result_sealed FROM checks WHERE id = $1', [c.id]);
  assert.ok(!row!.result_sealed.includes('Jane'));
  const [m] = await t.db.query<{ data_sealed: Uint8Array }>('SELECT data_sealed FROM media WHERE check_id = $1', [c.id]);
  assert.ok(!Buffer.from(m!.data_sealed).includes(png.subarray(0, 8)));
  const usage = (await t.call('GET', '/v1/usage', { key: o.sandboxKey })).json();
  assert.deepEqual(usage.modules, [{ module: 'checks', count: 1, operations: [{ operation: 'liveness', count: 1 }] }]);
  const ev = (await t.call('GET', `/v1/events?resource_id=${c.id}`, { key: o.sandboxKey })).json();
  assert.equal(ev.data[0].type, 'check.completed');
  const list = (await t.call('GET', '/v1/checks?subject_reference=cus_42', { key: o.sandboxKey })).json();
  assert.equal(list.data.length, 1);
});

test('uploads are sniffed by content, not trusted by name', () => {
  assert.equal(decodeUpload('image', png.toString('base64'), { maxBytes: 1000, accept: IMAGE_TYPES }).contentType, 'image/png');
  assert.equal(
    decodeUpload('image', `data:image/jpeg;base64,${png.toString('base64')}`, { maxBytes: 1000, accept: IMAGE_TYPES }).contentType,
    'image/png',
  );
  assert.throws(
    () => decodeUpload('image', Buffer.from('hello').toString('base64'), { maxBytes: 1000, accept: IMAGE_TYPES }),
    (e: { field: string }) => e.field === 'image',
  );
  assert.throws(
    () => decodeUpload('selfie', '***', { maxBytes: 1000, accept: IMAGE_TYPES }),
    (e: { field: string }) => e.field === 'selfie',
  );
  assert.throws(() => decodeUpload('image', png.toString('base64'), { maxBytes: 10, accept: IMAGE_TYPES }), /larger/);
});

/** `<check id>/<media id>` of a check with one medium. */
async function withMedium(o: Tenant): Promise<string> {
  const c = await make(o);
  const [m] = await t.db.query<{ id: string }>('SELECT id FROM media WHERE check_id = $1', [c.id]);
  return `${c.id}/${m!.id}`;
}

routeSecurityTests('getCheckMedia', () => t, {
  method: 'GET',
  url: (id) => `/v1/checks/${(id ?? 'x/y').split('/')[0]}/media/${(id ?? 'x/y').split('/')[1] ?? 'y'}`,
  scope: 'checks:read',
  create: async (_t, o) => withMedium(o),
});

test("GET /v1/checks/{id}/media/{media_id}: the decrypted bytes, inline, no-store, audited; another check's medium is 404", async () => {
  const o = await t.tenant();
  const [checkId, mediaId] = (await withMedium(o)).split('/');
  const res = await t.call('GET', `/v1/checks/${checkId}/media/${mediaId}`, { key: o.sandboxKey });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.rawPayload, png);
  assert.equal(res.headers['content-type'], 'image/png');
  assert.equal(res.headers['content-disposition'], 'inline');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.match(String(res.headers['cache-control']), /no-store/);
  const [audit] = await t.db.query<{ actor_type: string; metadata: { media_id: string } }>(
    "SELECT actor_type, metadata FROM audit_events WHERE resource_id = $1 AND action = 'check.media_viewed'",
    [checkId],
  );
  assert.equal(audit!.metadata.media_id, mediaId);
  const [otherCheck] = (await withMedium(o)).split('/');
  const wrong = await t.call('GET', `/v1/checks/${otherCheck}/media/${mediaId}`, { key: o.sandboxKey });
  assert.equal(wrong.statusCode, 404);
  assert.equal(wrong.json().error.field, 'media_id');
});
