import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, testConfig, type TestApp, type Tenant, activateTestList } from '../helpers/test-app.js';
import type { ListEntity } from '../../src/engines/screening/types.js';
import { WALLET_INDEXES } from '../../src/modules/wallets/indexes.js';
import { chainDataSchedule, pollChainData } from '../../src/modules/wallets/index.js';
import { chainCursors } from '../../src/modules/wallets/chain-data-repository.js';
import { buildJobHandlers, recurringJobs } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';

/**
 * Chain data feeding the exposure graph: an Esplora-like REST server and an Ethereum JSON-RPC node,
 * both started by the test on loopback, are polled for the transfers of monitored addresses; the
 * transfers become known transfers and the monitors they touch are re-screened (wallet.risk_changed).
 */

// Both on the OFAC SDN list (digital currency address identifiers).
const OFAC_XBT = '123WBUDmSJv4GctdVEz6Qq6z8nXSKrJ4KX';
const OFAC_ETH = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';
const BTC_ME = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
const ETH_ME = `0x${'22'.repeat(20)}`;
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const pad = (a: string): string => `0x${'0'.repeat(24)}${a.slice(2).toLowerCase()}`;
const TXID = 'ab'.repeat(32);

const seen: string[] = [];
let esplora: Server;
let rpc: Server;
let env: Record<string, string>;
let t: TestApp;
let owner: Tenant;

function listen(s: Server): Promise<string> {
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
}
const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((r) => {
    let b = '';
    req.on('data', (c: Buffer) => (b += c.toString()));
    req.on('end', () => r(b));
  });

before(async () => {
  // Esplora: one confirmed transaction paying BTC_ME from the OFAC-listed address (with change back).
  esplora = createServer((req, res) => {
    seen.push(`esplora ${req.url}`);
    if (req.url === `/address/${BTC_ME}/txs`) {
      res.setHeader('content-type', 'application/json');
      return res.end(
        JSON.stringify([
          {
            txid: TXID,
            status: { confirmed: true, block_height: 800_000, block_time: 1_700_000_000 },
            vin: [{ prevout: { scriptpubkey_address: OFAC_XBT, value: 150_000 } }],
            vout: [
              { scriptpubkey_address: BTC_ME, value: 100_000 },
              { scriptpubkey_address: OFAC_XBT, value: 49_000 },
            ],
          },
        ]),
      );
    }
    res.statusCode = 404;
    res.end('not found');
  });
  // JSON-RPC: a USDT transfer from the OFAC-listed address to ETH_ME at block 0x64.
  rpc = createServer(async (req, res) => {
    const { id, method, params } = JSON.parse(await bodyOf(req)) as { id: number; method: string; params: unknown[] };
    seen.push(`rpc ${method}`);
    let result: unknown = null;
    if (method === 'eth_blockNumber') result = '0x12c';
    else if (method === 'eth_getBlockByNumber') result = { number: params[0], timestamp: '0x65f00000' };
    else if (method === 'eth_getLogs') {
      const f = params[0] as { fromBlock: string; toBlock: string; topics: Array<string | null> };
      const log = {
        address: USDT,
        topics: [TRANSFER, pad(OFAC_ETH), pad(ETH_ME)],
        data: `0x${25_000_000n.toString(16).padStart(64, '0')}`,
        blockNumber: '0x64',
        transactionHash: `0x${'cd'.repeat(32)}`,
        logIndex: '0x0',
      };
      result = [log].filter(
        (l) =>
          Number(l.blockNumber) >= Number(f.fromBlock) &&
          Number(l.blockNumber) <= Number(f.toBlock) &&
          f.topics.every((x, i) => x === null || l.topics[i] === x),
      );
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  });
  const [eUrl, rUrl] = await Promise.all([listen(esplora), listen(rpc)]);
  env = {
    WALLETS_CHAIN_DATA_ENABLED: 'true',
    WALLETS_CHAIN_DATA_ESPLORA_URL: eUrl,
    WALLETS_CHAIN_DATA_EVM_RPC_URL: rUrl,
    WALLETS_CHAIN_DATA_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  t = await createTestApp({ env });
  owner = await t.tenant();
  const entity = (id: string, name: string, type: string, value: string): ListEntity => ({
    id,
    source: 'ofac_sdn',
    datasets: ['sanctions'],
    schema: 'organization',
    names: [{ full: name, quality: 'strong' }],
    birthDates: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: [{ type, value }],
    programs: ['CYBER2'],
  });
  await activateTestList(t, 'ofac_sdn', [
    entity('ofac-sdn:1', 'Listed Btc', 'crypto:XBT', OFAC_XBT),
    entity('ofac-sdn:2', 'LAZARUS GROUP', 'crypto:ETH', OFAC_ETH),
  ]);
  t.resources.get(WALLET_INDEXES).invalidateLists();
});
after(async () => {
  esplora.close();
  rpc.close();
  await t?.close();
});

const monitor = async (address: string) => {
  const r = await t.call('POST', '/v1/wallets/monitor', { key: owner.sandboxKey, body: { address, subject_reference: 'cus_chain' } });
  assert.equal(r.statusCode, 201, r.body);
  return r.json();
};
const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();

test('off by default: no provider, no schedule', () => {
  const d = testConfig();
  assert.equal(d.wallets.chainData.enabled, false);
  assert.deepEqual(chainDataSchedule(d.wallets.chainData), []);
  assert.ok(!recurringJobs(d).some((j) => j.queue === 'wallets.chain_data'));
  assert.ok(recurringJobs(t.config).some((j) => j.queue === 'wallets.chain_data'));
});

test('the outbound guard refuses loopback providers unless private networks are allowed; the error is kept per address', async () => {
  const btc = await monitor(BTC_ME);
  seen.length = 0;
  const s = await pollChainData(t.db, { ...t.config.wallets.chainData, allowPrivateNetworks: false }, t.resources.get(WALLET_INDEXES));
  assert.equal(seen.length, 0, 'nothing reached the servers');
  assert.equal(s.transfers, 0);
  assert.ok(s.failed.length >= 1);
  assert.match(s.failed[0]!.error, /loopback, private|may not reach/);
  const c = await chainCursors.get(
    t.db,
    { accountId: owner.accountId, environment: 'sandbox' },
    'esplora',
    btc.normalized_address ?? BTC_ME,
  );
  assert.equal(c?.cursor, null);
  assert.match(c!.last_error!, /transient|permanent/);
});

test('Esplora and JSON-RPC transfers from OFAC-listed addresses re-screen the monitors: wallet.risk_changed, then cursors stop repeats', async () => {
  const eth = await monitor(ETH_ME);
  const btc = (await t.call('GET', '/v1/wallets/monitors', { key: owner.sandboxKey }))
    .json()
    .data.find((m: { address: string }) => m.address === BTC_ME);
  assert.equal(btc.risk.level, 'low');
  assert.equal(eth.risk.level, 'low');
  seen.length = 0;
  const s = await pollChainData(t.db, t.config.wallets.chainData, t.resources.get(WALLET_INDEXES));
  assert.deepEqual(s.failed, []);
  assert.equal(s.polled, 2);
  assert.equal(s.transfers, 2, 'the BTC payment (change is not a transfer) and the USDT transfer');
  assert.ok(seen.includes(`esplora /address/${BTC_ME}/txs`));
  assert.ok(seen.includes('rpc eth_getLogs'));
  const transfers = await t.db.query<{ chain: string; asset: string | null; from_address: string; to_address: string; amount: string }>(
    'SELECT chain, asset, from_address, to_address, amount::text FROM wallet_transfers WHERE account_id = $1 ORDER BY chain',
    [owner.accountId],
  );
  assert.deepEqual(
    transfers.map((x) => [x.chain, x.asset, x.from_address, x.to_address, Number(x.amount)]),
    [
      ['bitcoin', null, OFAC_XBT, BTC_ME, 0.001],
      ['ethereum', 'USDT', OFAC_ETH.toLowerCase(), ETH_ME, 25],
    ],
  );
  await drain();
  for (const m of [btc, eth]) {
    const after = (await t.call('GET', `/v1/wallets/monitors/${m.id}`, { key: owner.sandboxKey })).json();
    assert.notEqual(after.risk.level, 'low', `${m.address} re-screened`);
    assert.ok(
      after.risk.categories.some((c: string) => c.startsWith('sanctions:indirect')),
      after.risk.categories.join(),
    );
    const ev = await t.db.query<{ data: { before: { level: string }; after: { level: string } } }>(
      "SELECT data FROM events WHERE type = 'wallet.risk_changed' AND resource_id = $1",
      [m.id],
    );
    assert.equal(ev.length, 1);
    assert.equal(ev[0]!.data.before.level, 'low');
  }
  // The cursors hold: a second poll asks again but records nothing new.
  const c = await chainCursors.get(t.db, { accountId: owner.accountId, environment: 'sandbox' }, 'esplora', BTC_ME);
  assert.deepEqual({ cursor: c?.cursor, error: c?.last_error }, { cursor: TXID, error: null });
  const again = await pollChainData(t.db, t.config.wallets.chainData, t.resources.get(WALLET_INDEXES));
  assert.equal(again.transfers, 0);
  const count = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM wallet_transfers WHERE account_id = $1', [
    owner.accountId,
  ]);
  assert.equal(count[0]!.n, '2');
});
