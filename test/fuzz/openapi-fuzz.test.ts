import { connect, type AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { answerProblem } from '../helpers/envelope.js';
import { flateBombPdf } from '../fixtures/pdf-bomb.js';

/**
 * Every operation of /openapi.json, attacked with malformed input: wrong types, nulls, NUL characters,
 * huge strings, deep nesting, invalid percent-encoding, over-long ids and URLs, broken multipart and
 * compression bombs. Whatever the input, the answer is never a 5xx and always the error envelope
 * (or a success); requests run in sandbox with a full-scope key, so they reach validation and verbs.
 */

let t: TestApp;
let tenant: Tenant;
before(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
});
after(() => t.close());

interface Operation {
  method: string;
  path: string;
  operationId: string;
  multipart: boolean;
  hasBody: boolean;
}

function operations(doc: {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: { content?: Record<string, unknown> } }>>;
}): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        multipart: 'multipart/form-data' in content,
        hasBody: !!op.requestBody,
      });
    }
  }
  return out;
}

const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
const BODIES: [string, string][] = [
  ['array', '[]'],
  ['null', 'null'],
  ['number', '42'],
  ['string', '"text"'],
  [
    'nul in strings',
    JSON.stringify({
      name: 'a\u0000b',
      key: 'x\u0000',
      reference: '\u0000',
      url: 'https://example.org/\u0000',
      subject_reference: 'a\u0000',
    }),
  ],
  [
    'wrong types',
    JSON.stringify({ name: 42, key: [], limit: 'many', url: {}, events: 'all', threshold: 'high', image: 7, subject_reference: { a: 1 } }),
  ],
  ['nulls', JSON.stringify({ name: null, key: null, url: null, events: null, image: null, reference: null, subject_reference: null })],
  ['huge string', JSON.stringify({ name: 'x'.repeat(300_000), key: 'k'.repeat(5_000), url: `https://example.org/${'a'.repeat(100_000)}` })],
  ['deep nesting', JSON.stringify({ metadata: deep(2_000), name: deep(50) })],
  ['proto', '{"__proto__":{"x":1},"name":"a"}'],
  ['constructor', '{"constructor":{"prototype":{"x":1}}}'],
  ['truncated', '{"name":"a'],
  ['unicode junk', JSON.stringify({ name: '\ud800\udfff\uffff', key: '\u202e\u0007' })],
];
const IDS = ['x', 'a\u0000b', 'i'.repeat(101), 'i'.repeat(5000), '%E0%A4%A', '..%2F..%2Fetc', 'ses_00000000000000000000000000'];

function fill(path: string, id: string): string {
  return path.replace(/\{[^}]+\}/g, () => (/%|\.\./.test(id) ? id : encodeURIComponent(id)));
}

function checkEnvelope(what: string, res: { statusCode: number; body: string }) {
  const problem = answerProblem(res);
  assert.equal(problem, null, `${what}: ${problem}`);
}

test('every operation: malformed ids, bodies and queries answer below 500, in the envelope', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const ops = operations(doc);
  assert.ok(ops.length > 40, `${ops.length} operations`);
  const failures: string[] = [];
  const attempt = async (what: string, req: InjectOptions) => {
    try {
      const res = await t.app.inject(req as never);
      checkEnvelope(what, res);
    } catch (err) {
      failures.push((err as Error).message.split('\n')[0]!.slice(0, 240));
    }
  };
  const auth = (p: string) => (p.startsWith('/capture/') ? {} : { authorization: `Bearer ${tenant.sandboxKey}` });
  for (const op of ops) {
    for (const id of op.path.includes('{') ? IDS : ['x']) {
      const url = fill(op.path, id);
      await attempt(`${op.operationId} id=${JSON.stringify(id.slice(0, 20))}`, {
        method: op.method as 'GET',
        url,
        headers: { ...auth(op.path), 'content-type': 'application/json' },
        payload: op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}',
      });
    }
    const url = fill(op.path, 'x');
    for (const q of [
      '?limit=abc',
      '?limit=-1&cursor=%00',
      '?cursor=' + 'z'.repeat(3000),
      '?status=%E0%A4%A',
      '?created_after=yesterday&created_before=%00',
    ]) {
      await attempt(`${op.operationId} query ${q.slice(0, 30)}`, { method: op.method as 'GET', url: url + q, headers: auth(op.path) });
    }
    if (!op.hasBody && op.method === 'GET') continue;
    for (const [name, payload] of BODIES) {
      await attempt(`${op.operationId} body ${name}`, {
        method: op.method as 'POST',
        url,
        headers: { ...auth(op.path), 'content-type': 'application/json', 'idempotency-key': `fuzz-${name}-${op.operationId}` },
        payload,
      });
    }
    if (op.hasBody) {
      for (const [name, ct, payload] of [
        ['no boundary', 'multipart/form-data', 'garbage'],
        ['broken', 'multipart/form-data; boundary=XX', '--XX\r\nContent-Disposition: form-data; name="image"\r\n\r\nabc'],
        ['bad header', 'multipart/form-data; boundary=XX', '--XX\r\nContent-Disposition: nonsense\r\n\r\nabc\r\n--XX--\r\n'],
        [
          'nul field',
          'multipart/form-data; boundary=XX',
          '--XX\r\nContent-Disposition: form-data; name="subject_reference"\r\n\r\na\u0000b\r\n--XX--\r\n',
        ],
      ] as const) {
        await attempt(`${op.operationId} multipart ${name}`, {
          method: op.method as 'POST',
          url,
          headers: { ...auth(op.path), 'content-type': ct },
          payload,
        });
      }
    }
  }
  assert.deepEqual(failures.slice(0, 40), [], `${failures.length} failures`);
});

/** A PNG header claiming 60,000 × 60,000 pixels (3.6 gigapixels) over a few bytes of data. */
function pngBomb(): Buffer {
  const crc = (buf: Buffer) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(60_000, 0);
  ihdr.writeUInt32BE(60_000, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024 * 1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('decompression bombs in every upload field are refused without a 5xx', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const png = pngBomb().toString('base64');
  const pdf = flateBombPdf(20).toString('base64');
  const uploads = new Set(['image', 'selfie', 'reference', 'front', 'back', 'document']);
  // Plausible values for the other required fields, so the request reaches the decoder.
  const plain: Record<string, unknown> = {
    subject_name: 'Jane Doe',
    minimum_age: 18,
    fields: [{ name: 'a', anchor: 'A' }],
    name: 'x',
    subject_reference: 'fuzz',
  };
  let decoded = 0;
  for (const [path, item] of Object.entries(
    doc.paths as Record<
      string,
      Record<
        string,
        {
          operationId: string;
          requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }> };
        }
      >
    >,
  )) {
    const op = item.post;
    const schema = op?.requestBody?.content?.['application/json']?.schema;
    const props = Object.keys(schema?.properties ?? {});
    if (!op || !props.some((p) => uploads.has(p))) continue;
    for (const [name, data] of [
      ['png', png],
      ['pdf', pdf],
    ] as const) {
      const body: Record<string, unknown> = {};
      for (const p of props) if (uploads.has(p)) body[p] = data;
      for (const r of schema?.required ?? []) if (!(r in body) && r in plain) body[r] = plain[r];
      const res = await t.app.inject({
        method: 'POST',
        url: path.replace(/\{[^}]+\}/g, 'x'),
        headers: { authorization: `Bearer ${tenant.sandboxKey}`, 'content-type': 'application/json' },
        payload: body,
      });
      checkEnvelope(`${op.operationId} ${name} bomb`, res);
      if (res.statusCode === 400 && /field|body/.test(res.body) && !/is required|not a known field/.test(res.body)) decoded++;
      else if (res.statusCode < 300) decoded++;
    }
  }
  assert.ok(decoded >= 8, `${decoded} bomb requests reached a decoder`);
});

test('framework-level refusals are in the envelope too: bad encodings, long URLs, huge headers, unknown routes', async () => {
  const cases: [string, InjectOptions][] = [
    [
      'invalid percent-encoding in the path',
      { method: 'GET', url: '/v1/verifications/%E0%A4%A', headers: { authorization: `Bearer ${tenant.sandboxKey}` } },
    ],
    ['unknown route', { method: 'GET', url: '/v1/nothing-here' }],
    [
      'over-long id',
      { method: 'GET', url: `/v1/verifications/${'i'.repeat(101)}`, headers: { authorization: `Bearer ${tenant.sandboxKey}` } },
    ],
    [
      'over-long URL',
      { method: 'GET', url: `/v1/verifications?cursor=${'c'.repeat(20_000)}`, headers: { authorization: `Bearer ${tenant.sandboxKey}` } },
    ],
    ['method not allowed', { method: 'PUT', url: '/v1/verifications', headers: { authorization: `Bearer ${tenant.sandboxKey}` } }],
  ];
  for (const [what, req] of cases) {
    const res = await t.app.inject(req as never);
    checkEnvelope(what, res);
    assert.ok(res.statusCode >= 400, what);
  }
});

test('what the HTTP parser refuses (over-long headers, garbage) is answered in the envelope, over a real socket', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => s.end(text));
      let out = '';
      s.on('data', (d) => (out += d.toString()));
      s.on('end', () => resolve(out));
      s.on('error', reject);
    });
  const big = await raw(`GET /v1/verifications HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
  assert.match(big, /^HTTP\/1\.1 431/);
  const body = JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4));
  assert.equal(body.error.code, 'invalid_request');
  assert.match(body.error.request_id, /^req_/);
  const junk = await raw('NOT HTTP AT ALL\r\n\r\n');
  assert.match(junk, /^HTTP\/1\.1 400/);
  assert.equal(JSON.parse(junk.slice(junk.indexOf('\r\n\r\n') + 4)).error.code, 'invalid_request');
});
