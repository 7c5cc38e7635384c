import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant, activateTestList } from '../helpers/test-app.js';
import { WALLET_INDEXES } from '../../src/modules/wallets/indexes.js';
import { NAME_SCREENINGS } from '../../src/modules/checks/index.js';

// The rule context fields that come from other modules (subject, counterparty, wallet, lists), each
// filled from data written through those modules' own APIs, read by rules that type-check.
let t: TestApp;
before(async () => {
  t = await createTestApp();
  await activateTestList(t, 'ofac_sdn', [
    {
      id: 'ofac-sdn:ctx1',
      source: 'ofac_sdn',
      datasets: ['sanctions'],
      schema: 'organization',
      names: [{ full: 'Example Mixer Ltd', quality: 'strong' }],
      birthDates: [],
      nationalities: [],
      countries: [],
      addresses: [],
      identifiers: [{ type: 'crypto:ETH', value: SANCTIONED }],
      programs: ['CYBER2'],
    },
  ]);
  t.resources.get(WALLET_INDEXES).invalidateLists();
});
after(() => t.close());

const SANCTIONED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const CLEAN = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const DAY = 86_400_000;
let seq = 0;
const txn = (over: Record<string, unknown> = {}) => ({
  reference: `ctx_${++seq}_${Math.random().toString(36).slice(2)}`,
  occurred_at: new Date().toISOString(),
  amount: '100.00',
  currency: 'EUR',
  direction: 'out',
  type: 'transfer',
  subject: { reference: 'cus_ctx' },
  ...over,
});

/** Publishes exactly these active rules (starter drafts disabled): the sandbox key drafts, a second key publishes. */
async function publish(o: Tenant, rules: { key: string; expression: string; score?: number }[]) {
  const start = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json();
  for (const r of start.rules) await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: 'disabled' } });
  for (const r of rules) {
    const res = await t.call('POST', '/v1/rules', {
      key: o.sandboxKey,
      body: { name: r.key, score: 10, severity: 'low', status: 'active', ...r },
    });
    assert.equal(res.statusCode, 201, res.body);
  }
  const revision = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json().revision;
  const pub = await t.call('POST', '/v1/rules/publish', { key: await o.keyWith(['rules:publish']), body: { revision } });
  assert.equal(pub.statusCode, 201, pub.body);
}

/** A decided verification imported for a subject reference (optionally with a screening check). */
async function importVerification(o: Tenant, reference: string, over: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/verifications/imports', {
    key: o.sandboxKey,
    body: {
      provider: 'previous',
      records: [
        {
          external_id: `ext_${reference}_${++seq}`,
          subject: { type: 'individual', reference, country: 'FR' },
          status: 'approved',
          risk: { score: 70, band: 'high' },
          created_at: new Date(Date.now() - 400 * DAY).toISOString(),
          completed_at: new Date(Date.now() - 399 * DAY).toISOString(),
          ...over,
        },
      ],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.json().created, 1, res.body);
}

const outcomes = (x: { rules: { key: string; outcome: string; values_used: Record<string, unknown> }[] }) =>
  Object.fromEntries(x.rules.map((r) => [r.key, r.outcome]));
const used = (x: { rules: { key: string; values_used: Record<string, unknown> }[] }, key: string) =>
  x.rules.find((r) => r.key === key)!.values_used;

describe('rule context: subject, counterparty, wallet, lists', () => {
  test('subject: KYC decision, risk band, country, PEP and relationship age from verifications; business record by reference', async () => {
    const o = await t.tenant();
    await importVerification(o, 'cus_ctx', {
      checks: [
        {
          type: 'sanctions_pep',
          status: 'match',
          score: 0.95,
          result: { hits: [{ entity_id: 'x', source: 'opensanctions', datasets: ['pep'], score: 0.95 }] },
        },
      ],
    });
    const biz = await t.call('POST', '/v1/businesses', {
      key: o.sandboxKey,
      body: {
        manual: { name: 'Ctx Trading GmbH', country: 'DE', legal_form: 'GmbH', incorporation_date: '2024-01-15' },
        reference: 'biz_ctx',
        screen: false,
      },
    });
    assert.equal(biz.statusCode, 201, biz.body);
    await publish(o, [
      { key: 'kyc', expression: 'subject.kyc_decision == "approved" && subject.risk_band == "high" && subject.country == "FR"' },
      { key: 'old', expression: 'subject.relationship_days >= 399 && subject.relationship_days <= 400' },
      { key: 'pep', expression: 'subject.pep' },
      { key: 'biz', expression: 'subject.type == "business" && subject.business.legal_form == "GmbH" && !subject.business.registered' },
      { key: 'biz_age', expression: 'subject.business.age_days > 30 && subject.business.incorporation_country == "DE"' },
    ]);
    const x = (await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn() })).json();
    assert.deepEqual(outcomes(x), { kyc: 'hit', old: 'hit', pep: 'hit', biz: 'no_hit', biz_age: 'no_hit' });
    assert.deepEqual(used(x, 'kyc'), { 'subject.kyc_decision': 'approved', 'subject.risk_band': 'high', 'subject.country': 'FR' });

    const b = (await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ subject: { reference: 'biz_ctx' } }) })).json();
    assert.deepEqual(outcomes(b), { kyc: 'no_hit', old: 'no_hit', pep: 'no_hit', biz: 'hit', biz_age: 'hit' });
    assert.equal(used(b, 'kyc')['subject.kyc_decision'], '', 'a subject never verified reads ""');

    // A subject Verity does not know at all: defaults, and the relationship starts with its first transaction.
    const n = (await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ subject: { reference: 'cus_new' } }) })).json();
    assert.deepEqual(outcomes(n), { kyc: 'no_hit', old: 'no_hit', pep: 'no_hit', biz: 'no_hit', biz_age: 'no_hit' });
    assert.equal(used(n, 'old')['subject.relationship_days'], 0);
  });

  test('counterparty: latest screening Verity holds for its reference, internal when Verity knows it as a subject', async () => {
    const o = await t.tenant();
    await importVerification(o, 'cp_bad', {
      checks: [
        {
          type: 'sanctions_pep',
          status: 'match',
          score: 0.97,
          result: { hits: [{ entity_id: 'y', source: 'ofac_sdn', datasets: ['sanctions'], score: 0.97 }] },
        },
      ],
    });
    await publish(o, [
      { key: 'sanctioned', expression: 'counterparty.screening.status == "match" && "ofac_sdn" in counterparty.screening.lists' },
      { key: 'score', expression: 'counterparty.screening.score > 0.9' },
      { key: 'internal', expression: 'counterparty.internal' },
    ]);
    const hit = (
      await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ counterparty: { reference: 'cp_bad', name: 'Bad Co' } }) })
    ).json();
    assert.deepEqual(outcomes(hit), { sanctioned: 'hit', score: 'hit', internal: 'hit' });
    const clean = (
      await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ counterparty: { reference: 'cp_unknown', name: 'X' } }) })
    ).json();
    assert.deepEqual(outcomes(clean), { sanctioned: 'no_hit', score: 'no_hit', internal: 'no_hit' });
    // 'X' is screened now (no hit on the lists); the stored match of cp_bad stays the riskier for cp_bad.
    assert.equal(used(clean, 'sanctioned')['counterparty.screening.status'], 'no_match');
    assert.deepEqual(used(hit, 'sanctioned')['counterparty.screening.matches'], ['y "" (ofac_sdn, 0.97)']);
    const anonymous = (
      await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ counterparty: { account: 'DE00' } }) })
    ).json();
    assert.equal(used(anonymous, 'sanctioned')['counterparty.screening.status'], '', 'a counterparty without a name is not screened');
  });

  test('wallet: the riskiest latest screening among the addresses, via the wallets module; lists: allow/block membership', async () => {
    const o = await t.tenant();
    for (const address of [SANCTIONED, CLEAN]) {
      const s = await t.call('POST', '/v1/wallets/screen', { key: o.sandboxKey, body: { address } });
      assert.equal(s.statusCode, 200, s.body);
    }
    const block = (kind: string, value: string, list = 'blocklist') =>
      t.call('POST', `/v1/lists/${list}/entries`, { key: o.sandboxKey, body: { kind, value, reason: 'test' } });
    assert.equal((await block('name', 'Shady  Holdings')).statusCode, 201);
    assert.equal((await block('ip_address', '203.0.113.9')).statusCode, 201);
    assert.equal((await block('subject', 'cus_vip', 'allowlist')).statusCode, 201);
    await publish(o, [
      { key: 'sanctioned_wallet', expression: 'wallet.sanctioned && wallet.risk == "severe" && wallet.screened' },
      { key: 'cp_blocked', expression: 'lists.counterparty_blocked && "blocklist:name" in lists.names' },
      { key: 'ip_blocked', expression: 'lists.ip_blocked' },
      { key: 'vip', expression: 'lists.subject_allowed' },
    ]);
    const crypto = (own: string, theirs: string, extra: Record<string, unknown> = {}) =>
      txn({
        type: 'crypto',
        crypto: { chain: 'ethereum', wallet: own },
        counterparty: { wallet: theirs, name: 'Shady Holdings' },
        ...extra,
      });
    const a = (await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: crypto(CLEAN, SANCTIONED.toLowerCase()) })).json();
    assert.deepEqual(outcomes(a), { sanctioned_wallet: 'hit', cp_blocked: 'hit', ip_blocked: 'no_hit', vip: 'no_hit' });
    assert.equal(String(used(a, 'sanctioned_wallet')['wallet.risk']), 'severe');
    const b = (
      await t.call('POST', '/v1/transactions', {
        key: o.sandboxKey,
        body: txn({
          subject: { reference: 'cus_vip' },
          ip: '203.0.113.9',
          counterparty: { name: 'Honest Ltd' },
          crypto: { chain: 'ethereum', wallet: CLEAN },
        }),
      })
    ).json();
    assert.deepEqual(outcomes(b), { sanctioned_wallet: 'no_hit', cp_blocked: 'no_hit', ip_blocked: 'hit', vip: 'hit' });
  });

  test('the reads started for the rule set this process last saw are not used when a newer version needs others', async () => {
    const o = await t.tenant();
    const entry = { kind: 'ip_address', value: '198.51.100.7', reason: 'test' };
    const blocked = await t.call('POST', '/v1/lists/blocklist/entries', { key: o.sandboxKey, body: entry });
    assert.equal(blocked.statusCode, 201, blocked.body);
    await publish(o, [{ key: 'transfer', expression: 'tx.type == "transfer"' }]);
    // This process now guesses version 1 (which reads no list) for the tenant.
    const first = (await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ ip: '198.51.100.7' }) })).json();
    assert.deepEqual(outcomes(first), { transfer: 'hit' });
    await publish(o, [{ key: 'ip_blocked', expression: 'lists.ip_blocked' }]);
    for (let i = 0; i < 2; i++) {
      // The first POST after the publish started version 1's reads; the second guesses version 2.
      const after = (await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ ip: '198.51.100.7' }) })).json();
      assert.equal(after.ruleset_version, 2);
      assert.deepEqual(outcomes(after), { ip_blocked: 'hit' });
    }
  });

  test('the starter typology sanctioned_counterparty fires on a blocklisted counterparty name (folded: case and spacing)', async () => {
    const o = await t.tenant();
    await t.call('POST', '/v1/lists/blocklist/entries', { key: o.sandboxKey, body: { kind: 'name', value: 'Evil Corp', reason: 'test' } });
    const start = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json();
    for (const r of start.rules)
      await t.call('PATCH', `/v1/rules/${r.id}`, {
        key: o.sandboxKey,
        body: { status: r.key === 'sanctioned_counterparty' ? 'active' : 'disabled' },
      });
    const revision = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json().revision;
    const pub = await t.call('POST', '/v1/rules/publish', { key: await o.keyWith(['rules:publish']), body: { revision } });
    assert.equal(pub.statusCode, 201, pub.body);
    const x = (await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ counterparty: { name: 'EVIL corp' } }) })).json();
    assert.equal(x.status, 'declined'); // score 100 reaches the starter decline threshold (100); the forced outcome is block_and_review
    assert.equal(outcomes(x).sanctioned_counterparty, 'hit');
    assert.equal(x.alerts.length, 1);
  });

  test('sanctioned_counterparty screens the counterparty name at transaction time: a listed name hits and names the entry, a near miss does not', async () => {
    const o = await t.tenant();
    await enableStarter(o, 'sanctioned_counterparty');
    const post = async (counterparty: Record<string, unknown>) => {
      const res = await t.call('POST', '/v1/transactions', { key: o.sandboxKey, body: txn({ counterparty }) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    // The sandbox list's sanctioned person, never screened before as a check: only the name is known.
    const listed = await post({ name: 'SANDBOX sanctioned  person', account: 'FR76 1' });
    assert.equal(outcomes(listed).sanctioned_counterparty, 'hit');
    assert.equal(listed.status, 'declined');
    const u = used(listed, 'sanctioned_counterparty');
    assert.equal(u['counterparty.screening.status'], 'potential_match'); // a name alone is never a confirmed match
    assert.equal(u['counterparty.screening.score'], 1);
    assert.deepEqual(u['counterparty.screening.datasets'], ['sanctions']);
    assert.deepEqual(u['counterparty.screening.matches'], ['sandbox:sanctioned-person "Sandbox Sanctioned Person" (sandbox, 1)']);
    const alert = (await t.call('GET', `/v1/cases?kind=transaction_rule`, { key: o.sandboxKey })).body;
    assert.match(alert, /sandbox:sanctioned-person/, 'the alert carries the list entry');
    // A test list loaded by the screening tests' helper (ofac_sdn), an organisation.
    const ofac = await post({ name: 'Example Mixer Ltd', reference: 'cp_mixer' });
    assert.equal(outcomes(ofac).sanctioned_counterparty, 'hit');
    assert.match(
      String(used(ofac, 'sanctioned_counterparty')['counterparty.screening.matches']),
      /^ofac-sdn:ctx1 "Example Mixer Ltd" \(ofac_sdn, 1\)/,
    );
    // Near misses: a shorter name (0.87) and a different company (0.91) score below 0.95.
    for (const name of ['Sandbox Sanctioned', 'Sandbox Sanctions Trading', 'Honest Bakery GmbH']) {
      const near = await post({ name });
      assert.equal(outcomes(near).sanctioned_counterparty, 'no_hit', name);
      assert.equal(near.status, 'approved', name);
    }
    // The counterparty cleared for its reference (allowlist subject entry): no hit on the same name.
    assert.equal(
      (
        await t.call('POST', '/v1/lists/allowlist/entries', {
          key: o.sandboxKey,
          body: { kind: 'subject', value: 'cp_cleared', reason: 'not the listed person' },
        })
      ).statusCode,
      201,
    );
    assert.equal(outcomes(await post({ name: 'Sandbox Sanctioned Person', reference: 'cp_cleared' })).sanctioned_counterparty, 'no_hit');
    // A repeat counterparty is answered from the memo (same key) with the same evaluation.
    const again = await post({ name: 'Sandbox  Sanctioned Person', account: 'FR76 1' });
    assert.deepEqual(used(again, 'sanctioned_counterparty'), u);
    const memo = t.resources.get(NAME_SCREENINGS);
    assert.ok(memo.hits >= 1, `memo hits ${memo.hits}`);
  });
});

async function enableStarter(o: Tenant, key: string) {
  const start = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json();
  for (const r of start.rules)
    await t.call('PATCH', `/v1/rules/${r.id}`, { key: o.sandboxKey, body: { status: r.key === key ? 'active' : 'disabled' } });
  const revision = (await t.call('GET', '/v1/rules/draft', { key: o.sandboxKey })).json().revision;
  const pub = await t.call('POST', '/v1/rules/publish', { key: await o.keyWith(['rules:publish']), body: { revision } });
  assert.equal(pub.statusCode, 201, pub.body);
}
