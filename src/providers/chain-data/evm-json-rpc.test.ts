import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChainDataError, evmJsonRpcProvider } from './index.js';

// A loopback JSON-RPC node answering eth_blockNumber, eth_getLogs (filtered by topic like a node)
// and eth_getBlockByNumber with the shapes geth returns.
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const ME = '0x19aa5fe80d33a56d56c78e82ea5e50e5d80b4dff';
const OTHER = '0x00000000000000000000000000000000000000aa';
const T = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const pad = (a: string): string => `0x${'0'.repeat(24)}${a.slice(2)}`;
const LOGS = [
  {
    address: USDT,
    topics: [T, pad(OTHER), pad(ME)],
    data: `0x${12_500_000n.toString(16).padStart(64, '0')}`,
    blockNumber: '0x64',
    transactionHash: '0x01',
    logIndex: '0x0',
  },
  {
    address: USDT,
    topics: [T, pad(ME), pad(OTHER)],
    data: `0x${1_000_000n.toString(16).padStart(64, '0')}`,
    blockNumber: '0xc8',
    transactionHash: '0x02',
    logIndex: '0x3',
  },
  {
    address: '0x00000000000000000000000000000000000000bb',
    topics: [T, pad(OTHER), pad(ME)],
    data: '0x01',
    blockNumber: '0xc8',
    transactionHash: '0x03',
    logIndex: '0x1',
  },
];
let server: Server;
let url = '';
let rpcError: { code: number; message: string } | undefined;

before(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(raw) as { id: number; method: string; params: Array<Record<string, unknown> | string> };
      let result: unknown = null;
      if (rpcError && method === 'eth_getLogs') return void res.end(JSON.stringify({ jsonrpc: '2.0', id, error: rpcError }));
      if (method === 'eth_blockNumber') result = '0x12c';
      else if (method === 'eth_getBlockByNumber') result = { number: params[0], timestamp: '0x65f00000' };
      else if (method === 'eth_getLogs') {
        const f = params[0] as { fromBlock: string; toBlock: string; topics: Array<string | null> };
        result = LOGS.filter(
          (l) =>
            Number(l.blockNumber) >= Number(f.fromBlock) &&
            Number(l.blockNumber) <= Number(f.toBlock) &&
            f.topics.every((t, i) => t === null || l.topics[i] === t),
        );
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const tokens = { [USDT]: { symbol: 'USDT', decimals: 6 } };

test('disabled by default', async () => {
  await assert.rejects(
    evmJsonRpcProvider({ baseUrl: url, tokens }).fetchTransfers(ME),
    (e: unknown) => e instanceof ChainDataError && e.kind === 'permanent',
  );
});

test('ERC-20 transfers both ways in windows up to the latest block; unknown tokens skipped; cursor = last block', async () => {
  const p = evmJsonRpcProvider({ enabled: true, baseUrl: url, tokens, blockSpan: 100, startBlock: 0 });
  const page = await p.fetchTransfers(ME);
  assert.deepEqual(
    page.transfers.map((t) => [t.from, t.to, t.amount, t.asset, t.blockHeight]),
    [
      [OTHER, ME, '12.5', 'USDT', 100],
      [ME, OTHER, '1', 'USDT', 200],
    ],
  );
  assert.equal(page.transfers[0]!.timestamp, new Date(0x65f00000 * 1000).toISOString());
  assert.deepEqual([page.cursor, page.complete], ['300', true]);
  assert.equal((await p.fetchTransfers(ME, '150')).transfers.length, 1);
  const partial = await evmJsonRpcProvider({
    enabled: true,
    baseUrl: url,
    tokens,
    blockSpan: 100,
    startBlock: 0,
    maxWindows: 1,
  }).fetchTransfers(ME);
  assert.deepEqual([partial.cursor, partial.complete], ['99', false]);
});

test('JSON-RPC errors: a range limit is transient, others permanent', async () => {
  const p = evmJsonRpcProvider({ enabled: true, baseUrl: url, tokens, attempts: 1 });
  rpcError = { code: -32005, message: 'query returned more than 10000 results' };
  await assert.rejects(p.fetchTransfers(ME), (e: unknown) => e instanceof ChainDataError && e.kind === 'transient');
  rpcError = { code: -32602, message: 'invalid argument 0' };
  await assert.rejects(p.fetchTransfers(ME), (e: unknown) => e instanceof ChainDataError && e.kind === 'permanent');
  rpcError = undefined;
});
