import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChainDataError, esploraProvider, transfersOfTx } from './index.js';

// A loopback Esplora stand-in answering recorded-shaped JSON (fields as Blockstream's API returns them).
const ME = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const PAYER = '1Df883c96LVauVsx9FEgnsourD8DELwCUQ';

function tx(n: number, confirmed = true): object {
  return {
    txid: n.toString(16).padStart(64, '0'),
    version: 2,
    locktime: 0,
    size: 222,
    weight: 561,
    fee: 1000,
    vin: [
      {
        txid: 'ff'.repeat(32),
        vout: 0,
        is_coinbase: false,
        sequence: 4294967293,
        prevout: { scriptpubkey: '', scriptpubkey_type: 'p2pkh', scriptpubkey_address: PAYER, value: 150_000_000 },
      },
    ],
    vout: [
      { scriptpubkey: '', scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: ME, value: 100_000_000 + n },
      { scriptpubkey: '', scriptpubkey_type: 'p2pkh', scriptpubkey_address: PAYER, value: 49_999_000 - n },
    ],
    status: confirmed
      ? { confirmed: true, block_height: 800_000 + n, block_hash: 'aa'.repeat(32), block_time: 1_700_000_000 + n }
      : { confirmed: false },
  };
}

// 60 confirmed transactions, newest (60) first, plus one in the mempool.
const HISTORY = Array.from({ length: 60 }, (_, i) => tx(60 - i));
let server: Server;
let base = '';
const hits: string[] = [];
let failNext = 0;

before(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '';
    hits.push(url);
    if (url.includes('/slow/')) return void setTimeout(() => res.end('[]'), 500);
    if (failNext > 0) {
      failNext--;
      res.statusCode = 503;
      return void res.end('busy');
    }
    const m = /^\/api\/address\/([^/]+)\/txs(?:\/chain\/([0-9a-f]{64}))?$/.exec(url);
    if (!m || m[1]!.startsWith('bad')) {
      res.statusCode = 400;
      return void res.end('Invalid Bitcoin address');
    }
    let list: object[];
    if (!m[2]) list = [tx(61, false), ...HISTORY.slice(0, 25)];
    else {
      const at = HISTORY.findIndex((t) => (t as { txid: string }).txid === m[2]);
      list = HISTORY.slice(at + 1, at + 26);
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(list));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

test('disabled by default: no request is made', async () => {
  const n = hits.length;
  await assert.rejects(
    esploraProvider({ baseUrl: base }).fetchTransfers(ME),
    (e: unknown) => e instanceof ChainDataError && e.kind === 'permanent' && /disabled/.test(e.message),
  );
  assert.equal(hits.length, n);
});

test('pages through /txs and /txs/chain/:last_seen, skips the mempool, splits outputs, ignores change', async () => {
  const p = esploraProvider({ enabled: true, baseUrl: base });
  const page = await p.fetchTransfers(ME);
  assert.equal(page.complete, true);
  assert.equal(page.transfers.length, 60);
  assert.equal(page.cursor, (HISTORY[0] as { txid: string }).txid);
  const first = page.transfers[0]!;
  assert.deepEqual([first.from, first.to, first.amount, first.blockHeight], [PAYER, ME, '1.0000006', 800_060]);
  assert.ok(page.transfers.every((t) => t.to !== PAYER));
  // Since the cursor of three transactions ago: only the newer ones.
  const since = (HISTORY[3] as { txid: string }).txid;
  const inc = await p.fetchTransfers(ME, since);
  assert.equal(inc.transfers.length, 3);
  assert.equal(inc.cursor, page.cursor);
});

test('page limit reports an incomplete walk', async () => {
  const page = await esploraProvider({ enabled: true, baseUrl: base, maxPages: 1 }).fetchTransfers(ME);
  assert.deepEqual([page.transfers.length, page.complete], [25, false]);
});

test('failures: 4xx permanent, 5xx retried then transient, timeout transient', async () => {
  const p = esploraProvider({ enabled: true, baseUrl: base, attempts: 2 });
  await assert.rejects(
    p.fetchTransfers('bad0000000000000'),
    (e: unknown) => e instanceof ChainDataError && e.kind === 'permanent' && e.status === 400,
  );
  failNext = 1;
  assert.equal((await p.fetchTransfers(ME, (HISTORY[0] as { txid: string }).txid)).transfers.length, 0);
  failNext = 5;
  await assert.rejects(p.fetchTransfers(ME), (e: unknown) => e instanceof ChainDataError && e.kind === 'transient' && e.status === 503);
  failNext = 0;
  const slow = esploraProvider({ enabled: true, baseUrl: `${base}slow/`, timeoutMs: 100, attempts: 1 });
  await assert.rejects(
    slow.fetchTransfers(ME),
    (e: unknown) => e instanceof ChainDataError && e.kind === 'transient' && /timed out/.test(e.message),
  );
});

test('multi-input split is proportional in integer satoshi', () => {
  const t = transfersOfTx({
    txid: 'ab',
    status: { confirmed: true },
    vin: [{ prevout: { scriptpubkey_address: 'A', value: 1 } }, { prevout: { scriptpubkey_address: 'B', value: 2 } }],
    vout: [{ scriptpubkey_address: 'C', value: 300 }],
  });
  assert.deepEqual(
    t.map((x) => [x.from, x.amount]),
    [
      ['A', '0.000001'],
      ['B', '0.000002'],
    ],
  );
});
