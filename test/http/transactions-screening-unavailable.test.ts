import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Production with no sanctions list imported: a counterparty name cannot be screened. The transaction is still
// evaluated (screening never blocks a payment); the rule that reads the screening reports `error`, not a silent
// no_hit, and raises a rule_error alert; a block entry still fires it.
let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('no active list in the environment: counterparty.screening is "unavailable", the rule errors (rule_error alert), a block entry still hits', async () => {
  const o = await t.tenant();
  const key = o.productionKey;
  const start = (await t.call('GET', '/v1/rules/draft', { key })).json();
  for (const r of start.rules)
    await t.call('PATCH', `/v1/rules/${r.id}`, { key, body: { status: r.key === 'sanctioned_counterparty' ? 'active' : 'disabled' } });
  const revision = (await t.call('GET', '/v1/rules/draft', { key })).json().revision;
  const pub = await t.call('POST', '/v1/rules/publish', { key: await o.keyWith(['rules:publish'], 'production'), body: { revision } });
  assert.equal(pub.statusCode, 201, pub.body);
  let seq = 0;
  const post = async (name: string) => {
    const res = await t.call('POST', '/v1/transactions', {
      key,
      body: {
        reference: `su_${++seq}`,
        occurred_at: new Date().toISOString(),
        amount: '50.00',
        currency: 'EUR',
        direction: 'out',
        subject: { reference: 'cus_su' },
        counterparty: { name },
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  };
  const x = await post('Sandbox Sanctioned Person');
  const rule = x.rules.find((r: { key: string }) => r.key === 'sanctioned_counterparty');
  assert.equal(rule.outcome, 'error');
  assert.equal(rule.error.code, 'screening_unavailable');
  assert.equal(rule.values_used['counterparty.screening.status'], 'unavailable');
  assert.equal(x.status, 'approved');
  assert.deepEqual(
    x.alerts.map((a: { kind: string }) => a.kind),
    ['rule_error'],
  );
  // A block entry on the name does not need a list: the rule hits.
  const block = await t.call('POST', '/v1/lists/blocklist/entries', { key, body: { kind: 'name', value: 'Evil Corp', reason: 'test' } });
  assert.equal(block.statusCode, 201, block.body);
  const y = await post('Evil Corp');
  assert.equal(y.rules.find((r: { key: string }) => r.key === 'sanctioned_counterparty').outcome, 'hit');
});
