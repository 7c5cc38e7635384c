import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('the reference lists sessions first and advertises only what exists', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const tags = doc.tags.map((x: { name: string }) => x.name);
  assert.deepEqual(tags.slice(0, 3), ['Verifications', 'Journeys', 'Checks']);
  assert.ok(tags.indexOf('Capture (session token)') > tags.indexOf('Webhooks'));
  const used = new Set(
    Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>).flatMap((o) => o.tags ?? [])),
  );
  for (const u of used) assert.ok(tags.includes(u), `tag ${u} is ordered`);
  // Nothing is promised that has no operation: no KYB or KYT paths exist yet, so the description says so.
  const paths = Object.keys(doc.paths);
  if (!paths.some((p) => p.startsWith('/v1/businesses'))) assert.doesNotMatch(doc.info.description, /\bKYB\b/);
  if (!paths.some((p) => p.startsWith('/v1/transactions'))) assert.doesNotMatch(doc.info.description, /KYT\b/);
});

test('POST /v1/verifications accepts the journey key or its jrn_ id', async () => {
  const o = await t.tenant();
  const list = (await t.call('GET', '/v1/journeys?key=kyc_standard', { key: o.sandboxKey })).json();
  const id = list.data[0].id as string;
  assert.match(id, /^jrn_/);
  for (const journey of ['kyc_standard', id]) {
    const res = await t.call('POST', '/v1/verifications', {
      key: o.sandboxKey,
      body: { journey, subject: { type: 'individual', reference: 'cust_j' } },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().journey.key ?? res.json().journey, res.json().journey.key ?? 'kyc_standard');
  }
  const other = await t.tenant();
  const foreign = await t.call('POST', '/v1/verifications', {
    key: other.sandboxKey,
    body: { journey: id, subject: { type: 'individual', reference: 'cust_j' } },
  });
  assert.equal(foreign.statusCode, 400, "another tenant's journey id is unknown here");
});
