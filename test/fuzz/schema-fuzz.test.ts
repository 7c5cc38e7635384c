import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { seeded } from '../helpers/random.js';
import { answerProblem } from '../helpers/envelope.js';
import { generator, picker, type Schema } from '../helpers/schema-generator.js';

/**
 * Every JSON operation of /openapi.json, sent bodies that its own request schema generates: values that pass
 * validation but sit at its edges (lengths and numbers at their limits, dates far in the past and future,
 * decimals with many digits, every enum value, empty and full arrays, unusual Unicode). The handlers behind
 * validation must answer them below 500, in the error envelope when they refuse (the spec: bad input is a 4xx
 * naming the field, never a 5xx). Seeded, so a failure repeats; FUZZ_CASES sets the bodies per operation.
 */

let t: TestApp;
let tenant: Tenant;
before(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
});
after(() => t.close());

const CASES = Number(process.env.FUZZ_CASES ?? 12);

test('every JSON operation: bodies its own schema generates, at the edges, answer below 500', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const failures: string[] = [];
  const rnd = seeded(Number(process.env.FUZZ_SEED ?? 20261127));
  const gen = generator(doc, rnd);
  // Ids of what the operations created, by the path they were created at: `/v1/verifications/{id}/…` is sent the ids
  // that POST /v1/verifications returned, so it reaches the handler rather than a 404. Operations on a collection
  // run first.
  const created = new Map<string, string[]>();
  type Op = {
    operationId?: string;
    parameters?: { in: string; name: string; schema: Schema }[];
    requestBody?: { content?: Record<string, { schema?: Schema }> };
  };
  const ops = Object.entries(doc.paths as Record<string, Record<string, Op>>)
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })))
    .filter(({ method, op }) => ['post', 'patch', 'put'].includes(method) && op.requestBody?.content?.['application/json']?.schema)
    .sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  let sent = 0;
  for (const { path, method, op } of ops) {
    const schema = op.requestBody?.content?.['application/json']?.schema as Schema;
    for (let i = 0; i < CASES; i++) {
      const body = gen(schema);
      const url = path.replace(/\{([^}]+)\}/g, (whole: string, name: string) => {
        const p = op.parameters?.find((x) => x.in === 'path' && x.name === name);
        const ids = created.get(path.slice(0, path.indexOf(whole)).replace(/\/$/, ''));
        const value =
          ids?.length && rnd() < 0.8
            ? picker(rnd)(ids)
            : p && (p.schema.enum || p.schema.anyOf || p.schema.pattern || p.schema.type === 'integer')
              ? gen(p.schema)
              : 'x';
        return encodeURIComponent(String(value));
      });
      const res = await t.app.inject({
        method: method.toUpperCase() as 'POST',
        url,
        headers: {
          ...(path.startsWith('/capture/') ? {} : { authorization: `Bearer ${tenant.sandboxKey}` }),
          'content-type': 'application/json',
          'idempotency-key': `schema-fuzz-${sent}`,
        },
        payload: JSON.stringify(body),
      });
      sent++;
      const problem = answerProblem(res);
      if (problem) failures.push(`${op.operationId ?? path} ${url} ${JSON.stringify(body).slice(0, 300)}: ${problem}`);
      else if (res.statusCode < 300 && !path.includes('{')) {
        const id = (res.json() as { id?: unknown }).id;
        if (typeof id === 'string') created.set(path, [...(created.get(path) ?? []), id]);
      }
    }
  }
  assert.ok(sent > 100, `${sent} requests`);
  assert.deepEqual(failures.slice(0, 30), [], `${failures.length} failures of ${sent}`);
});

test('every GET operation: query parameters their own schemas generate, at the edges, answer below 500', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const rnd = seeded(Number(process.env.FUZZ_SEED ?? 20261127) + 1);
  const gen = generator(doc, rnd);
  type Param = { in: string; name: string; schema: Schema };
  const failures: string[] = [];
  let sent = 0;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string; parameters?: Param[] }>>)) {
    const op = item.get;
    const query = op?.parameters?.filter((p) => p.in === 'query') ?? [];
    if (!op || query.length === 0) continue;
    for (let i = 0; i < CASES; i++) {
      const qs = new URLSearchParams();
      for (const p of query) if (rnd() < 0.6) for (const v of [gen(p.schema)].flat()) qs.append(p.name, String(v));
      const url = `${path.replace(/\{[^}]+\}/g, 'x')}?${qs}`;
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: path.startsWith('/capture/') ? {} : { authorization: `Bearer ${tenant.sandboxKey}` },
      });
      sent++;
      const problem = answerProblem(res);
      if (problem) failures.push(`${op.operationId ?? path} ${url.slice(0, 300)}: ${problem}`);
    }
  }
  assert.ok(sent > 50, `${sent} requests`);
  assert.deepEqual(failures.slice(0, 30), [], `${failures.length} failures of ${sent}`);
});
