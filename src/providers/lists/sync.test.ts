import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { syncList } from './sync.js';
import { customCsvSource } from './custom-csv.js';
import { unXmlSource } from './un-xml.js';

const good = 'id,name\n' + Array.from({ length: 20 }, (_, i) => `${i},Person Number ${i}`).join('\n') + '\n';
const files: Record<string, { status: number; body: string }> = {
  '/good.csv': { status: 200, body: good },
  '/shrunk.csv': { status: 200, body: 'id,name\n1,Only One\n' },
  '/broken.csv': { status: 200, body: 'garbage without header\n' },
  '/truncated.xml': { status: 200, body: '<?xml version="1.0"?><CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID>' },
  '/down.csv': { status: 503, body: 'maintenance' },
};

let server: Server;
let base = '';

describe('syncList against a local HTTP server', () => {
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

  test('a good file becomes a versioned snapshot', async () => {
    const r = await syncList({ source: customCsvSource, sourceName: 'custom', urls: `${base}/good.csv`, minEntities: 10 });
    assert.equal(r.ok, true);
    if (!r.ok) return;
    assert.equal(r.snapshot.entities.length, 20);
    assert.match(r.snapshot.version, /^[0-9a-f]{32}$/);
    const again = await syncList({ source: customCsvSource, sourceName: 'custom', urls: `${base}/good.csv`, previous: r.snapshot });
    assert.equal(again.ok && again.unchanged, true);
  });

  test('a truncated XML download never replaces the snapshot', async () => {
    const r = await syncList({ source: unXmlSource, sourceName: 'un', urls: `${base}/truncated.xml` });
    assert.equal(r.ok, false);
    if (!r.ok) { assert.match(r.reason, /parse failed/); assert.equal(r.transient, false); }
  });

  test('a drastic drop against the previous snapshot is refused', async () => {
    const prev = await syncList({ source: customCsvSource, sourceName: 'custom', urls: `${base}/good.csv` });
    assert.ok(prev.ok);
    const r = await syncList({ source: customCsvSource, sourceName: 'custom', urls: `${base}/shrunk.csv`, previous: prev.ok ? prev.snapshot : undefined });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, /fell from 20 to 1/);
  });

  test('a format without an official URL needs urls', async () => {
    const r = await syncList({ source: customCsvSource });
    assert.equal(r.ok, false);
  });

  test('bad content and server errors are classified', async () => {
    const broken = await syncList({ source: customCsvSource, sourceName: 'custom', urls: `${base}/broken.csv` });
    assert.equal(broken.ok, false);
    const down = await syncList({ source: customCsvSource, sourceName: 'custom', urls: `${base}/down.csv` });
    assert.equal(down.ok, false);
    if (!down.ok) { assert.match(down.reason, /HTTP 503/); assert.equal(down.transient, true); }
  });

  test('the fetch function is injectable (multi-file formats pass a map of URLs)', async () => {
    const seen: string[] = [];
    const fetch = async (url: string) => { seen.push(url); return { ok: true, status: 200, arrayBuffer: async () => new TextEncoder().encode(good).buffer as ArrayBuffer }; };
    const r = await syncList({ source: customCsvSource, urls: { 'list.csv': 'https://example.invalid/list.csv' }, fetch });
    assert.equal(r.ok, true);
    assert.equal(r.ok && r.snapshot.source, 'custom');
    assert.deepEqual(seen, ['https://example.invalid/list.csv']);
  });
});
