import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAttributionLines, parseTransferLines } from './import-parse.js';
import { parseImportOffThread } from './imports.js';

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;

test('attribution lines: good rows, bad lines named by number, keys of the good rows', () => {
  const r = parseAttributionLines(`chain,address,category,entity\nETH,${A(1)},mixer,M\nETH,${A(2)},weather,x\nBTC,0x1,scam,y\n`);
  assert.equal(r.lines, 3);
  assert.deepEqual(
    r.rows.map((x) => [x.address, x.category, x.entity_name]),
    [[A(1), 'mixer', 'M']],
  );
  assert.deepEqual(
    r.errors.map((e) => e.line),
    [3, 4],
  );
  assert.equal(r.keys.length, 1);
});

test('transfer lines (JSON lines): amounts checked, zero refused', () => {
  const r = parseTransferLines(
    [
      JSON.stringify({ chain: 'ETH', from: A(1), to: A(2), amount: '1.5', tx_hash: '0xab' }),
      JSON.stringify({ chain: 'ETH', from: A(1), to: A(3), amount: '0' }),
    ].join('\n'),
  );
  assert.deepEqual(
    r.rows.map((x) => [x.to, x.amount, x.tx_hash]),
    [[A(2), '1.5', '0xab']],
  );
  assert.match(r.errors[0]!.message, /amount/);
});

test('a large import parses in a worker thread: the event loop keeps turning meanwhile, and the result is the same', async () => {
  const lines = ['chain,from,to,amount'];
  for (let i = 1; i <= 60_000; i++) lines.push(`ETH,${A(i)},${A(i + 1)},${i}.5`);
  const content = lines.join('\n');
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const started = ticks;
  const off = await parseImportOffThread({ kind: 'transfers', content });
  clearInterval(timer);
  assert.equal(off.rows.length, 60_000);
  assert.equal(off.errors.length, 0);
  // Parsed on this thread, the loop would not turn before the result (the parse is synchronous).
  assert.ok(ticks - started > 0, 'timers ran while the file was parsed');
  const inline = parseTransferLines(content);
  assert.deepEqual(off.keys.slice(0, 5), inline.keys.slice(0, 5));
  assert.equal(off.keys.length, inline.keys.length);
});
