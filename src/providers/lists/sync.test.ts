import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkParsedSize, downloadListInput, parseFailure } from './sync.js';
import { customCsvSource } from './custom-csv.js';
import { unXmlSource } from './un-xml.js';
import { ofacCsvSource } from './ofac-csv.js';

const good = 'id,name\n' + Array.from({ length: 20 }, (_, i) => `${i},Person Number ${i}`).join('\n') + '\n';
const files: Record<string, { status: number; body: string }> = {
  '/good.csv': { status: 200, body: good },
  '/truncated.xml': { status: 200, body: '<?xml version="1.0"?><CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID>' },
  '/down.csv': { status: 503, body: 'maintenance' },
  '/busy.csv': { status: 429, body: 'slow down' },
  '/gone.csv': { status: 404, body: 'not found' },
};

let server: Server;
let base = '';
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('list downloads against a local HTTP server', () => {
  before(async () => {
    server = createServer((req, res) => {
      const f = files[req.url ?? ''] ?? { status: 404, body: 'not found' };
      res.writeHead(f.status, { 'content-type': 'text/plain' });
      res.end(f.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('a good file is downloaded as bytes the format parses', async () => {
    const r = await downloadListInput({ source: customCsvSource, urls: `${base}/good.csv` });
    assert.ok(r.ok);
    assert.ok(r.input instanceof Uint8Array);
    assert.equal(text(r.input), good);
    assert.equal(customCsvSource.parse(r.input).length, 20);
  });

  test('a multi-file format downloads every named file into a map', async () => {
    const r = await downloadListInput({ source: ofacCsvSource, urls: { 'sdn.csv': `${base}/good.csv`, 'alt.csv': `${base}/good.csv` } });
    assert.ok(r.ok);
    assert.deepEqual(Object.keys(r.input).sort(), ['alt.csv', 'sdn.csv']);
  });

  test('a truncated XML download downloads, then fails to parse: a permanent parse failure', async () => {
    const r = await downloadListInput({ source: unXmlSource, urls: `${base}/truncated.xml` });
    assert.ok(r.ok);
    let failure;
    try {
      unXmlSource.parse(r.input);
      assert.fail('the truncated XML parsed');
    } catch (e) {
      failure = parseFailure(e);
    }
    assert.equal(failure.ok, false);
    assert.match(failure.reason, /^parse failed: /);
    assert.equal(failure.transient, false);
  });

  test('server errors and 429 are transient, other statuses are not; the URL is named', async () => {
    assert.deepEqual(await downloadListInput({ source: customCsvSource, urls: `${base}/down.csv` }), {
      ok: false,
      reason: `download failed: HTTP 503 from ${base}/down.csv`,
      transient: true,
    });
    assert.deepEqual(await downloadListInput({ source: customCsvSource, urls: `${base}/busy.csv` }), {
      ok: false,
      reason: `download failed: HTTP 429 from ${base}/busy.csv`,
      transient: true,
    });
    assert.deepEqual(await downloadListInput({ source: customCsvSource, urls: `${base}/gone.csv` }), {
      ok: false,
      reason: `download failed: HTTP 404 from ${base}/gone.csv`,
      transient: false,
    });
  });

  test('a refused connection is a transient failure', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await downloadListInput({ source: customCsvSource, urls: `http://127.0.0.1:${port}/x.csv` });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.transient, true);
    assert.match(!r.ok ? r.reason : '', /^download failed: /);
  });

  test('a download that takes longer than the timeout is aborted as transient', async () => {
    const slow = createServer(() => undefined); // never answers
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const r = await downloadListInput({
        source: customCsvSource,
        urls: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/x.csv`,
        timeoutMs: 100,
      });
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.transient, true);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });

  test('a format without an official URL needs urls', async () => {
    assert.deepEqual(await downloadListInput({ source: customCsvSource }), {
      ok: false,
      reason: 'format custom_csv has no official URL; pass urls',
      transient: false,
    });
  });

  test('the fetch function is injectable', async () => {
    const seen: string[] = [];
    const fetch = async (url: string) => {
      seen.push(url);
      return { ok: true, status: 200, arrayBuffer: async () => new TextEncoder().encode(good).buffer as ArrayBuffer };
    };
    const r = await downloadListInput({ source: customCsvSource, urls: { 'list.csv': 'https://example.invalid/list.csv' }, fetch });
    assert.ok(r.ok);
    assert.deepEqual(seen, ['https://example.invalid/list.csv']);
  });
});

describe('size rules for a parsed download', () => {
  test('fewer entities than the minimum are refused', () => {
    assert.equal(checkParsedSize({ count: 0, previousCount: 0 })?.reason, 'only 0 entities (minimum 1)');
    assert.equal(checkParsedSize({ count: 9, previousCount: 0, minEntities: 10 })?.reason, 'only 9 entities (minimum 10)');
    assert.equal(checkParsedSize({ count: 10, previousCount: 0, minEntities: 10 }), null);
  });

  test('a drastic drop against the previous snapshot is refused; 20 % is allowed by default', () => {
    assert.deepEqual(checkParsedSize({ count: 1, previousCount: 20 }), {
      ok: false,
      reason: 'entity count fell from 20 to 1 (more than 20%)',
      transient: false,
    });
    assert.equal(checkParsedSize({ count: 16, previousCount: 20 }), null);
    assert.notEqual(checkParsedSize({ count: 15, previousCount: 20 }), null);
    assert.equal(checkParsedSize({ count: 15, previousCount: 20, maxDropRatio: 0.5 }), null);
    assert.equal(checkParsedSize({ count: 30, previousCount: 20 }), null);
  });
});
