import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, activateTestList } from '../helpers/test-app.js';
import { blocklistEntriesFor, listValueIndex, normalizeListValue } from '../../src/modules/lists/index.js';
import { snapshots } from '../../src/modules/checks/index.js';
import type { ListEntity } from '../../src/engines/screening/types.js';
import { Sealer } from '../../src/platform/crypto.js';

/** What wallet screening reads from the lists and screening modules, through their faces (no wallets SQL on their tables). */

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

const WALLET = `0x${'42'.repeat(20)}`;

test('blocklistEntriesFor: live wallet_address entries of the tenant by blind index, not other kinds, tenants or deleted ones', async () => {
  const owner = await t.tenant();
  const other = await t.tenant();
  const sealer = new Sealer(t.config.masterKey);
  const made = await t.call('POST', '/v1/lists/blocklist/entries', {
    key: owner.sandboxKey,
    body: { kind: 'wallet_address', value: WALLET, reason: 'fraud ring' },
  });
  assert.equal(made.statusCode, 201);
  const tenant = { accountId: owner.accountId, environment: 'sandbox' as const };
  const index = listValueIndex(sealer, tenant, 'wallet_address', normalizeListValue('wallet_address', WALLET));
  assert.deepEqual(await blocklistEntriesFor(t.db, tenant, 'wallet_address', [index]), [{ id: made.json().id, reason: 'fraud ring' }]);
  assert.deepEqual(await blocklistEntriesFor(t.db, tenant, 'name', [index]), [], 'another kind');
  assert.deepEqual(
    await blocklistEntriesFor(t.db, { accountId: owner.accountId, environment: 'production' }, 'wallet_address', [index]),
    [],
  );
  assert.deepEqual(await blocklistEntriesFor(t.db, { accountId: other.accountId, environment: 'sandbox' }, 'wallet_address', [index]), []);
  assert.deepEqual(await blocklistEntriesFor(t.db, tenant, 'wallet_address', []), []);
  const del = await t.call('DELETE', `/v1/lists/blocklist/entries/${made.json().id}`, { key: owner.sandboxKey });
  assert.ok(del.statusCode < 300);
  assert.deepEqual(await blocklistEntriesFor(t.db, tenant, 'wallet_address', [index]), [], 'deleted');
});

test('snapshots.cryptoEntities: only the entities of that snapshot with a crypto identifier', async () => {
  const entity = (id: string, identifiers: ListEntity['identifiers']): ListEntity => ({
    id,
    source: 'ofac_sdn',
    datasets: ['sanctions'],
    schema: 'organization',
    names: [{ full: `Listed ${id}`, quality: 'strong' }],
    birthDates: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers,
    programs: ['CYBER2'],
  });
  await activateTestList(t, 'ofac_sdn', [
    entity('ofac-sdn:1', [{ type: 'crypto:ETH', value: WALLET }]),
    entity('ofac-sdn:2', [{ type: 'passport', value: 'X1' }]),
    entity('ofac-sdn:3', [
      { type: 'passport', value: 'X2' },
      { type: 'crypto:XBT', value: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' },
    ]),
  ]);
  const active = await snapshots.activeFor(t.db, 'ofac_sdn');
  assert.ok(active);
  const got = await snapshots.cryptoEntities(t.db, active.id);
  assert.deepEqual(
    got.map((e) => e.id),
    ['ofac-sdn:1', 'ofac-sdn:3'],
  );
  assert.deepEqual(got[0]!.identifiers, [{ type: 'crypto:ETH', value: WALLET }]);
  assert.deepEqual(await snapshots.cryptoEntities(t.db, 'snap_none'), []);
});
