import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { seeded } from '../helpers/random.js';
import { answerProblem } from '../helpers/envelope.js';
import { hostileMedia } from '../helpers/hostile-media.js';
import { multipartBody, type FilePart } from '../helpers/multipart.js';

/**
 * Every operation that takes a file in its JSON body (base64 or a data: URL), sent each hostile medium of the capture
 * walk's set in each of its file fields, the rest of the body valid so that the medium reaches the engine: noise, 1 × 1
 * and 4000 × 3 images, mislabelled and truncated files, empty ones, PDFs where images are wanted and the reverse, an
 * HEIC brand with no image, text. Every answer must be below 500; a refusal must be a 400 in the envelope naming the
 * field it refuses; each as JSON and as multipart/form-data. The operations are read from the OpenAPI document, so a
 * new operation with a file field fails here until it has a body below.
 */

let t: TestApp;
let tenant: Tenant;
before(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
});
after(() => t.close());

let written = 0;
const post = (url: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${tenant.sandboxKey}`, 'content-type': 'application/json', 'idempotency-key': `media-${++written}` },
    payload: JSON.stringify(body),
  });

/** The same body as multipart/form-data: `file` as a file part wherever the body holds it, the rest as text fields. */
const FILE = '\u0000file';
const postForm = (url: string, body: Record<string, unknown>, file: FilePart) => {
  const fields: Record<string, string> = {};
  const files: Record<string, FilePart[]> = {};
  for (const [name, value] of Object.entries(body)) {
    if (value === FILE) files[name] = [file];
    else if (Array.isArray(value) && value.every((v) => v === FILE)) files[name] = value.map(() => file);
    else fields[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const { body: payload, contentType } = multipartBody(fields, files);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${tenant.sandboxKey}`, 'content-type': contentType, 'idempotency-key': `media-${++written}` },
    payload,
  });
};

/** A valid body of each operation, its file fields set to `file` (one string; `frames` as a burst of two). */
const BODIES: Record<string, (file: string) => Record<string, unknown>> = {
  '/v1/checks/document': (file) => ({ front: file, back: file }),
  '/v1/checks/liveness': (file) => ({ frames: [file, file] }),
  '/v1/checks/face-match': (file) => ({ selfie: file, reference: file }),
  '/v1/checks/age-estimation': (file) => ({ image: file, minimum_age: 18 }),
  '/v1/checks/face-search': (file) => ({ image: file }),
  '/v1/checks/face-search/enrollments': (file) => ({ image: file, subject_reference: 'cus_media' }),
  '/v1/checks/proof-of-address': (file) => ({ document: file, subject_name: 'Ada Lovelace' }),
  '/v1/checks/document-ai': (file) => ({ document: file, fields: [{ name: 'total', anchor: 'Total', type: 'amount' }] }),
  '/v1/businesses/{id}/documents': (file) => ({ file, declared_type: 'certificate_of_incorporation' }),
};

type Schema = { $ref?: string; description?: string; properties?: Record<string, Schema>; items?: Schema };

test('every operation taking a file answers hostile media below 500, refusing in the envelope with the field', async (ctx) => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
    components: { schemas: Record<string, Schema> };
  };
  const resolve = (s: Schema | undefined): Schema | undefined => {
    let out = s;
    while (out?.$ref) out = doc.components.schemas[out.$ref.split('/').pop() ?? ''];
    return out;
  };
  const isFile = (s: Schema | undefined) => /base64/i.test(resolve(s)?.description ?? '');
  const fileFields = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const op of Object.values(item)) {
      const props = resolve(op.requestBody?.content?.['application/json']?.schema)?.properties ?? {};
      const fields = Object.entries(props)
        .filter(([, p]) => isFile(p) || isFile(resolve(p)?.items))
        .map(([k]) => k);
      if (fields.length) fileFields.set(path, fields);
    }
  assert.deepEqual([...fileFields.keys()].sort(), Object.keys(BODIES).sort(), 'each operation with a file field has a body here');

  const business = await post('/v1/businesses', { manual: { name: 'Media Shop', country: 'FR' }, reference: 'media-1' });
  assert.equal(business.statusCode, 201, business.body);
  const media = await hostileMedia(seeded(Number(process.env.FUZZ_SEED ?? 20261129)));
  const failures: string[] = [];
  let refused = 0;
  const slow: [number, string][] = [];
  for (const [o, [path, body]] of Object.entries(BODIES).entries()) {
    const url = path.replace('{id}', encodeURIComponent((business.json() as { id: string }).id));
    const fields = fileFields.get(path) ?? [];
    for (const [i, m] of media.entries()) {
      // As JSON (plain base64 for every other medium, a data: URL with the declared, maybe wrong, type for the rest, the
      // other way round from one operation to the next) and as multipart/form-data, the file part carrying the type.
      const base64 = (o + i) % 2 === 0 ? m.data.toString('base64') : `data:${m.type};base64,${m.data.toString('base64')}`;
      for (const [how, send] of [
        ['json', () => post(url, body(base64))],
        ['multipart', () => postForm(url, body(FILE), { filename: 'upload', type: m.type, data: m.data })],
      ] as const) {
        const t0 = performance.now();
        const res = await send();
        const what = `${path} ${m.name} (${how})`;
        slow.push([performance.now() - t0, `${what} ${res.statusCode}`]);
        const problem = answerProblem(res);
        if (problem) failures.push(`${what}: ${problem}`);
        else if (res.statusCode >= 400) {
          refused++;
          const error = (res.json() as { error: { code: string; field?: string } }).error;
          const named = error.field ?? '';
          if (res.statusCode === 400 && !fields.some((f) => named === f || named.startsWith(`${f}[`)))
            failures.push(`${what}: 400 names ${JSON.stringify(error.field)}, not one of ${fields.join(', ')}: ${res.body.slice(0, 200)}`);
        }
      }
    }
  }
  ctx.diagnostic(`${Object.keys(BODIES).length} operations × ${media.length} media × JSON and multipart; ${refused} refused`);
  ctx.diagnostic(
    slow
      .sort((a, b) => b[0] - a[0])
      .slice(0, 5)
      .map(([ms, n]) => `${Math.round(ms)} ${n}`)
      .join('\n'),
  );
  assert.deepEqual(failures, []);
});
