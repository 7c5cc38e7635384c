import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { seeded } from '../helpers/random.js';
import { answerProblem } from '../helpers/envelope.js';
import { hostileMedia } from '../helpers/hostile-media.js';
import { generator, picker, type Schema } from '../helpers/schema-generator.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { importRegistryFile } from '../../src/modules/businesses/index.js';
import { DEFAULT_JOURNEYS } from '../../src/modules/journeys/defaults.js';

/**
 * A random walk over the API's operations on resources that exist: real cases, Travel Rule messages, businesses
 * with their persons, rules, journeys, checks, webhooks and keys are made first, then every step sends one operation
 * (any method, the ones on a resource most often) on one of them, with a body its own schema generates. The order is
 * random, so resources meet transitions in states their tests do not put them in: a message confirmed after its
 * rejection, a verification decided after its deletion, a key revoked twice, a webhook tested after its deletion.
 * Every answer must be below 500 and, when it refuses, in the error envelope; one step in ten on a resource is sent
 * by another tenant, and must be refused. Seeded: FUZZ_SEED repeats a walk, FUZZ_STEPS sets its length.
 */

const STEPS = Number(process.env.FUZZ_STEPS ?? 600);
const registry = (f: string) => new URL(`../../src/providers/registries/fixtures/${f}`, import.meta.url).pathname;

let t: TestApp;
let tenant: Tenant;
before(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
  for (const [file, format] of [
    ['gb-companies.csv', 'gb-coh-companies-csv'],
    ['psc-stream.jsonl', 'gb-coh-psc'],
  ] as const) {
    const r = await importRegistryFile(t.db, { path: registry(file), format });
    assert.equal(r.ok, true, r.error);
  }
});
after(() => t.close());

const drain = () => new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) }).drain();

/** A path with its parameters' names dropped: `/v1/lists/{list}/entries/{id}` → `/v1/lists/{}/entries/{}`. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/**
 * Where a POST's new resource lives when that is not under the collection it was posted to (its `id` joins the pool
 * of that shape).
 */
const HOME: Record<string, string> = {
  '/v1/wallets/monitor': '/v1/wallets/monitors/{}',
  '/v1/wallets/screen': '/v1/wallets/screenings/{}',
  '/v1/rules/backtest': '/v1/rules/backtests/{}',
  '/v1/checks/face-search/enrollments': '/v1/checks/face-search/enrollments/{}',
  '/v1/checks/contact': '/v1/checks/contact/{}',
};

/** One API request as the tenant (or with `key`), JSON when it has a body, each write under a new Idempotency-Key. */
let written = 0;
const call = (method: string, url: string, body?: unknown, key = tenant.sandboxKey) =>
  t.app.inject({
    method: method.toUpperCase() as 'POST',
    url,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method.toLowerCase() === 'get' ? {} : { 'idempotency-key': `walk-${++written}` }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

type Op = {
  operationId?: string;
  parameters?: { in: string; name: string; schema: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

test('a random walk of operations on real resources, in any order, answers below 500', async (ctx) => {
  const doc = (await call('get', '/openapi.json')).json();
  const rnd = seeded(Number(process.env.FUZZ_SEED ?? 20261128));
  const pick = picker(rnd);
  const gen = generator(doc, rnd);
  /** Concrete resource URLs by shape: `/v1/cases/{}` → [`/v1/cases/case_…`]. */
  const pool = new Map<string, Set<string>>();
  const add = (shaped: string, url: string) => pool.set(shaped, (pool.get(shaped) ?? new Set()).add(url));
  /** The shape of a concrete URL: the document's path it is an instance of. */
  const shapeOf = (url: string): string => {
    const parts = url.split('/');
    const path = Object.keys(doc.paths as object)
      .filter((p) => {
        const segs = p.split('/');
        return segs.length === parts.length && segs.every((seg, i) => seg === parts[i] || /^\{.+\}$/.test(seg));
      })
      .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
    return shape(path ?? url);
  };
  /** A resource its POST made, filed by the shape it lives at. */
  const made = (collection: string, id: unknown) => {
    if (typeof id !== 'string') return;
    const home = HOME[collection];
    if (home) add(home, home.replace('{}', encodeURIComponent(id)));
    else add(`${shapeOf(collection)}/{}`, `${collection}/${encodeURIComponent(id)}`);
    if (collection.startsWith('/v1/checks/')) add('/v1/checks/{}', `/v1/checks/${encodeURIComponent(id)}`);
  };
  const create = async (collection: string, body: unknown) => {
    const res = await call('post', collection, body);
    assert.ok(res.statusCode < 300, `${collection}: ${res.statusCode} ${res.body}`);
    made(collection, res.json().id);
    return res.json();
  };

  // What exists before the walk: each made as its own tests make it.
  await create('/v1/verifications', { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cus_walk' } });
  await create('/v1/verifications', { journey: 'kyc_standard', subject: { type: 'individual', reference: 'sandbox_referred' } });
  await drain(); // the referred session's checks run and open its review case
  const journey = structuredClone(DEFAULT_JOURNEYS[1]!.definition);
  const j = await create('/v1/journeys', { key: 'walk_light', name: 'Walk', definition: journey, publish: false });
  add('/v1/journeys/{}/versions/{}', `/v1/journeys/${j.key ?? 'walk_light'}/versions/${j.latest_version ?? 1}`);
  const b = await create('/v1/businesses', { source: 'gb_coh', source_ref: '06528297', reference: 'walk-uk' });
  add('/v1/businesses/{}/persons/{}', `/v1/businesses/${b.id}/persons/${encodeURIComponent('psc-party:ada1')}`);
  await create('/v1/businesses', { manual: { name: 'Corner Shop', country: 'FR' }, reference: 'walk-m' });
  await create('/v1/travel-rule/counterparties', { name: 'Gamma', legal_name: 'Gamma VASP SA' });
  const person = (given: string, family: string, extra: Record<string, unknown> = {}) => ({
    naturalPerson: {
      name: { nameIdentifier: [{ primaryIdentifier: family, secondaryIdentifier: given, nameIdentifierType: 'LEGL' }] },
      ...extra,
    },
  });
  for (let i = 0; i < 3; i++)
    await create('/v1/travel-rule/messages', {
      direction: 'incoming',
      asset: { slip0044: 0, symbol: 'BTC' },
      amount: '0.5',
      amount_fiat: { value: '20000', currency: 'USD' },
      jurisdiction: 'US',
      ivms101: {
        originator: {
          originatorPersons: [person('Anna', 'Sender', { customerIdentification: 'cus-1' })],
          accountNumber: ['1BoatSLRHtKNngkdXEeobR76b53LETtpyT'],
        },
        beneficiary: { beneficiaryPersons: [person('Bea', 'Receiver')] },
      },
    });
  await create('/v1/rules', {
    key: 'walk_large',
    name: 'Large',
    expression: 'tx.amount > 1000.0',
    score: 40,
    severity: 'high',
    status: 'active',
  });
  // The rule published by a second key (maker-checker), so that a large transaction raises an alert and its case.
  const revision = (await call('get', '/v1/rules/draft')).json().revision;
  const publish = await call('post', '/v1/rules/publish', { revision }, await tenant.keyWith(['rules:publish']));
  assert.equal(publish.statusCode, 201, publish.body);
  for (const amount of ['100.00', '250000.00'])
    await create('/v1/transactions', {
      reference: `walk_${amount}`,
      occurred_at: '2026-11-27T10:00:00Z',
      amount,
      currency: 'EUR',
      direction: 'out',
      type: 'transfer',
      subject: { reference: 'cus_walk' },
      counterparty: { name: 'ACME Ltd', account: 'DE89370400440532013000', bank_country: 'DE' },
    });
  await create('/v1/checks/screening', { name: 'Sandbox Sanctioned Person' });
  await create('/v1/checks/contact', { channel: 'email', destination: 'walker@example.com' });
  await create('/v1/monitoring/subjects', { subject_reference: 'cus_walk', name: 'Walk Er', date_of_birth: '1970-01-01' });
  await create('/v1/wallets/monitor', { address: `0x${'7'.repeat(40)}`, subject_reference: 'cus_walk' });
  await create('/v1/lists/blocklist/entries', { kind: 'email', value: 'walk@example.com', reason: 'walk' });
  await create('/v1/webhooks', { url: 'https://hooks.example.org/verity', event_types: ['verification.completed'] });
  await create('/v1/api-keys', { name: 'walk', scopes: ['lists:read'] });
  // What only a list shows (events, deliveries, alerts, cases): every id its list returns joins the pool.
  const harvest = async () => {
    for (const path of ['/v1/cases', '/v1/events', '/v1/webhook-deliveries', '/v1/monitoring/alerts', '/v1/checks', '/v1/transactions']) {
      const res = await call('get', path);
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      for (const row of (res.json() as { data?: { id?: unknown }[] }).data ?? []) if (typeof row.id === 'string') made(path, row.id);
    }
  };
  await harvest();
  for (const needed of [
    '/v1/cases/{}',
    '/v1/transactions/{}',
    '/v1/lists/{}/entries/{}',
    '/v1/travel-rule/messages/{}',
    '/v1/businesses/{}/persons/{}',
    '/v1/rules/{}',
    '/v1/webhooks/{}',
  ])
    assert.ok(pool.get(needed)?.size, `the walk has a resource at ${needed}`);

  const ops = Object.entries(doc.paths as Record<string, Record<string, Op>>)
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })))
    .filter(({ path, method, op }) => {
      if (path.startsWith('/capture/') || !['get', 'post', 'patch', 'put', 'delete'].includes(method)) return false;
      const content = op.requestBody?.content;
      return !content || content['application/json'];
    });
  const onResources = ops.filter((o) => o.path.includes('{'));
  /** The URL of an operation: the longest pooled resource its path starts with, the other parameters generated. */
  const urlOf = (path: string, op: Op, on?: string): string => {
    const shaped = shape(path);
    let prefix = '';
    let concrete = on ?? '';
    if (on === undefined)
      for (const [key, urls] of pool)
        if ((shaped === key || shaped.startsWith(`${key}/`)) && key.length > prefix.length && urls.size && rnd() < 0.95) {
          prefix = key;
          concrete = pick([...urls]);
        }
    const rest = path.split('/').slice(concrete ? concrete.split('/').length : 0);
    const filled = rest.map((seg) => {
      const m = /^\{(.+)\}$/.exec(seg);
      if (!m) return seg;
      const p = op.parameters?.find((x) => x.in === 'path' && x.name === m[1]);
      return encodeURIComponent(String(p && (p.schema.enum || p.schema.pattern || p.schema.type === 'integer') ? gen(p.schema) : 'x'));
    });
    return [concrete, ...filled].filter((s, i) => s !== '' || i === 0).join('/') || '/';
  };

  const failures: string[] = [];
  const counts = { ok: 0, refused: 0, foreign: 0, bursts: 0 };
  const stranger = await t.tenant();
  const accepted = new Map<string, number>();
  /** One operation: on `on` (a pooled resource's URL) when given, else on what `urlOf` picks; sometimes by another tenant. */
  const send = async (step: number, { path, method, op }: (typeof ops)[number], on?: string) => {
    const url = urlOf(path, op, on);
    const schema = op.requestBody?.content?.['application/json']?.schema;
    let body: unknown;
    if (schema) body = gen(schema);
    else if (method === 'post' && rnd() < 0.5) body = {};
    let query = '';
    if (method === 'get') {
      const qs = new URLSearchParams();
      for (const p of op.parameters?.filter((x) => x.in === 'query') ?? []) if (rnd() < 0.3) qs.append(p.name, String(gen(p.schema)));
      query = qs.size ? `?${qs}` : '';
    }
    // Now and then another tenant tries the same operation on this tenant's resource: it must never succeed.
    const owned = [...pool.values()].some((urls) => [...urls].some((u) => url === u || url.startsWith(`${u}/`)));
    const foreign = on === undefined && owned && rnd() < 0.1;
    const res = await call(method, url + query, body, foreign ? stranger.sandboxKey : tenant.sandboxKey);
    const problem = answerProblem(res);
    const what = `step ${step}${on === undefined ? '' : ' (burst)'}: ${method.toUpperCase()} ${url}${query}`;
    if (problem) failures.push(`${what} ${JSON.stringify(body)?.slice(0, 300) ?? ''}: ${problem}`);
    if (foreign) {
      counts.foreign++;
      if (res.statusCode < 400) failures.push(`${what}: another tenant's request answered ${res.statusCode}`);
      return;
    }
    if (res.statusCode < 300) {
      counts.ok++;
      const name = op.operationId ?? `${method} ${path}`;
      accepted.set(name, (accepted.get(name) ?? 0) + 1);
      if (method === 'post' && !path.includes('{')) made(path, (res.json() as { id?: unknown }).id);
    } else counts.refused++;
  };
  for (let step = 0; step < STEPS; step++) {
    // One step in ten is a burst: six operations on one resource at once (transitions racing each other, a
    // deletion racing an update), as concurrent clients or a double-clicking operator send them.
    if (rnd() < 0.1) {
      const [key, urls] = pick([...pool].filter(([, u]) => u.size > 0));
      const target = pick([...urls]);
      const on = ops.filter((o) => shape(o.path) === key || shape(o.path).startsWith(`${key}/`));
      if (on.length) {
        counts.bursts++;
        await Promise.all(Array.from({ length: 6 }, () => send(step, pick(on), target)));
        continue;
      }
    }
    await send(step, rnd() < 0.75 ? pick(onResources) : pick(ops));
  }
  // Every resource still answers its GET after whatever the walk did to it.
  for (const [shaped, urls] of pool) {
    const get = ops.find((o) => o.method === 'get' && shape(o.path) === shaped);
    if (!get) continue;
    for (const url of urls) {
      const problem = answerProblem(await call('get', url));
      if (problem) failures.push(`after the walk: GET ${url}: ${problem}`);
    }
  }
  ctx.diagnostic(
    `accepted: ${[...accepted].map(([k, n]) => `${k} ${n}`).join(', ')}; refused ${counts.refused}; another tenant's ${counts.foreign}; bursts ${counts.bursts}`,
  );
  ctx.diagnostic(`resources: ${[...pool].map(([k, v]) => `${k} ${v.size}`).join(', ')}`);
  assert.ok(counts.ok > STEPS / 20, `the walk reached handlers (${counts.ok} accepted, ${counts.refused} refused)`);
  assert.deepEqual(failures.slice(0, 30), [], `${failures.length} failures in ${STEPS} steps`);
});

test('the capture API: uploads, challenges, frames and submissions of hostile media in any order, then the checks, answer below 500', async (ctx) => {
  const rnd = seeded(Number(process.env.FUZZ_SEED ?? 20261128) + 7);
  const pick = picker(rnd);
  const media = await hostileMedia(rnd);
  // Journeys a subject can finish without a readable document, so that submissions go through and their checks run
  // on what the walk uploaded; and the standard one, whose document steps refuse most of it.
  const journeys: Record<string, { checks: unknown[]; kinds: string[] }> = {
    walk_challenge: {
      checks: [{ type: 'liveness', settings: { challenge: true } }, { type: 'proof_of_address' }],
      kinds: ['proof_of_address'],
    },
    walk_selfie: { checks: [{ type: 'liveness' }, { type: 'age_estimation' }], kinds: ['selfie'] },
    kyc_standard: { checks: [], kinds: ['document_front', 'document_back', 'selfie'] },
  };
  for (const [key, { checks }] of Object.entries(journeys)) {
    if (key === 'kyc_standard') continue;
    const res = await call('post', '/v1/journeys', {
      key,
      name: key,
      publish: true,
      definition: {
        checks,
        decision_rules: { decline: [], refer: [], decline_at_band: null, refer_at_band: null },
        risk_scoring: { signals: [], medium_from: 25, high_from: 70 },
        session_lifetime_seconds: 3600,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
  }
  const sessions: { id: string; token: string; kinds: string[] }[] = [];
  for (const [j, { kinds }] of Object.entries(journeys)) {
    const res = await call('post', '/v1/verifications', { journey: j, subject: { type: 'individual', reference: 'cus_capture_walk' } });
    assert.equal(res.statusCode, 201, res.body);
    sessions.push({ id: res.json().id, token: res.json().session_token, kinds });
  }
  const failures: string[] = [];
  const seen = new Map<string, number>();
  const submitted = new Set<string>();
  const steps = Math.ceil(STEPS / 8);
  for (let step = 0; step < steps; step++) {
    const s = pick(sessions);
    const auth = { authorization: `Bearer ${s.token}` };
    const r = rnd();
    const m = pick(media);
    let req: { method: 'GET' | 'PUT' | 'POST'; url: string; headers: Record<string, string>; payload?: Buffer };
    if (r < 0.45) {
      const kind = rnd() < 0.8 ? pick(s.kinds) : pick(['document_front', 'document_back', 'selfie', 'proof_of_address']);
      req = { method: 'PUT', url: `/capture/v1/media/${kind}`, headers: { ...auth, 'content-type': m.type }, payload: m.data };
    } else if (r < 0.7) {
      const index = pick([0, 1, 2, 3, 9]);
      req = { method: 'PUT', url: `/capture/v1/challenge/frames/${index}`, headers: { ...auth, 'content-type': m.type }, payload: m.data };
    } else if (r < 0.82) req = { method: 'POST', url: '/capture/v1/challenge', headers: auth };
    else if (r < 0.92) req = { method: 'GET', url: '/capture/v1/session', headers: auth };
    else req = { method: 'POST', url: '/capture/v1/submit', headers: auth };
    const res = await t.app.inject(req);
    if (req.url === '/capture/v1/submit' && res.statusCode < 300) submitted.add(s.id);
    const label = `${req.method} ${req.url.replace(/\/\d+$/, '/{index}')} ${res.statusCode}`;
    seen.set(label, (seen.get(label) ?? 0) + 1);
    const problem = answerProblem(res);
    if (problem) failures.push(`step ${step}: ${req.method} ${req.url} (${req.payload ? m.name : 'no body'}): ${problem}`);
  }
  // Then each session is finished as a subject would, with what the walk sent (noise for faces, a PDF or an image of
  // noise for the address), so that submissions go through and the checks run on it.
  const finish = async (req: { method: 'GET' | 'PUT' | 'POST'; url: string; headers: Record<string, string>; payload?: Buffer }) => {
    const res = await t.app.inject(req);
    const problem = answerProblem(res);
    if (problem) failures.push(`finishing: ${req.method} ${req.url}: ${problem}`);
    return res;
  };
  const noiseJpeg = media[0]!;
  for (const s of sessions) {
    const auth = { authorization: `Bearer ${s.token}` };
    const upload = (url: string, m: { type: string; data: Buffer }) =>
      finish({ method: 'PUT', url, headers: { ...auth, 'content-type': m.type }, payload: m.data });
    if (s.kinds.includes('proof_of_address')) {
      const challenge = await finish({ method: 'POST', url: '/capture/v1/challenge', headers: auth });
      if (challenge.statusCode < 300)
        for (let i = 0; i < (challenge.json() as { frame_count: number }).frame_count; i++)
          await upload(`/capture/v1/challenge/frames/${i}`, noiseJpeg);
      await upload('/capture/v1/media/proof_of_address', pick(media.filter((m) => m.name === 'pdf' || m.name.includes('noise'))));
    }
    if (s.kinds.includes('selfie')) await upload('/capture/v1/media/selfie', noiseJpeg);
    if (submitted.has(s.id)) continue;
    if ((await finish({ method: 'POST', url: '/capture/v1/submit', headers: auth })).statusCode < 300) submitted.add(s.id);
  }
  assert.ok(submitted.size >= 2, `the sessions without a document step were submitted (${submitted.size})`);
  await drain(); // the submitted sessions' checks run on what was uploaded
  for (const s of sessions)
    for (const url of [`/v1/verifications/${s.id}`, `/v1/verifications/${s.id}/evidence`, `/v1/verifications/${s.id}/report`]) {
      const problem = answerProblem(await call('get', url));
      if (problem) failures.push(`after the walk: GET ${url}: ${problem}`);
    }
  ctx.diagnostic(`answers: ${[...seen].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  assert.deepEqual(failures.slice(0, 30), [], `${failures.length} failures in ${steps} steps`);
});
