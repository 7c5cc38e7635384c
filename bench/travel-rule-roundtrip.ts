/**
 * Travel Rule round trip between two Verity instances (issue #15): the originator VASP (A) creates an
 * outgoing message, its outbox delivers the TRP inquiry over HTTP on loopback to B's receiver, B screens
 * the originator (sandbox list), B's reviewer accepts, B's outbox posts the approval to A's callback, and
 * A's message reads `accepted`. Each instance has its own PGlite database and listens on 127.0.0.1.
 * Jobs are drained as soon as they are queued (no poll interval in the figure: a worker polling every
 * 250 ms adds up to that per hop). Baseline in the same run: one authenticated GET of a message on A.
 *
 *   npm run bench -- travel-rule-roundtrip   (N=50 by default; TR_BENCH_N to change)
 */
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp, type Tenant } from '../test/helpers/test-app.js';
import { buildJobHandlers } from '../src/jobs/index.js';
import { JobRunner } from '../src/platform/jobs.js';
import { percentile } from './lib/stats.js';

const N = Number(process.env.TR_BENCH_N ?? 50);
const WARMUP = 5;

interface Side {
  t: TestApp;
  tenant: Tenant;
  base: string;
  drain(): Promise<void>;
}
async function side(): Promise<Side> {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.config.publicBaseUrl = base;
  const tenant = await t.tenant();
  const runner = new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }) });
  return { t, tenant, base, drain: () => runner.drain() };
}
const call = async (s: Side, method: string, path: string, body?: unknown) => {
  const r = await fetch(`${s.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${s.tenant.sandboxKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await r.json()) as Record<string, any>;
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
};

const A = await side();
const B = await side();
const inbound = (await call(B, 'PATCH', '/v1/travel-rule/settings', { inbound_trp_enabled: true })).inbound_trp_url as string;
const cp = await call(A, 'POST', '/v1/travel-rule/counterparties', {
  name: 'Beta',
  legal_name: 'Beta Custody Ltd',
  protocols: [{ protocol: 'trp', endpoint: inbound }],
});
await call(B, 'POST', '/v1/travel-rule/counterparties', {
  name: 'Alpha',
  legal_name: 'Alpha Exchange GmbH',
  protocols: [{ protocol: 'trp', endpoint: `${A.base}/` }],
});

const person = (given: string, family: string, extra = {}) => ({
  naturalPerson: {
    name: { nameIdentifier: [{ primaryIdentifier: family, secondaryIdentifier: given, nameIdentifierType: 'LEGL' }] },
    ...extra,
  },
});
const body = (i: number) => ({
  counterparty_id: cp.id,
  asset: { slip0044: 0 },
  amount: '0.25',
  amount_fiat: { value: '15000', currency: 'EUR' },
  jurisdiction: 'DE',
  ivms101: {
    originator: {
      originatorPersons: [person('Anna', `Sender${i}`, { customerIdentification: `cus-${i}` })],
      accountNumber: ['1BoatSLRHtKNngkdXEeobR76b53LETtpyT'],
    },
    beneficiary: { beneficiaryPersons: [person('Bea', 'Receiver')] },
  },
});

const total: number[] = [];
const hops = {
  create: [] as number[],
  inquiry: [] as number[],
  screening: [] as number[],
  accept: [] as number[],
  resolution: [] as number[],
};
const baseline: number[] = [];
for (let i = 0; i < WARMUP + N; i++) {
  const t0 = performance.now();
  const m = await call(A, 'POST', '/v1/travel-rule/messages', body(i));
  const t1 = performance.now();
  await A.drain();
  const t2 = performance.now();
  const inc = (await call(B, 'GET', `/v1/travel-rule/messages?direction=incoming&request_identifier=${m.request_identifier}`)).data[0];
  await B.drain();
  const t3 = performance.now();
  await call(B, 'POST', `/v1/travel-rule/messages/${inc.id}/accept`, { destination_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
  const t4 = performance.now();
  await B.drain();
  const t5 = performance.now();
  const status = (await call(A, 'GET', `/v1/travel-rule/messages/${m.id}`)).status;
  const t6 = performance.now();
  if (status !== 'accepted') throw new Error(`round ${i}: A's message is ${status}`);
  const b0 = performance.now();
  await call(A, 'GET', `/v1/travel-rule/messages/${m.id}`);
  const b1 = performance.now();
  if (i < WARMUP) continue;
  total.push(t6 - t0);
  hops.create.push(t1 - t0);
  hops.inquiry.push(t2 - t1);
  hops.screening.push(t3 - t2);
  hops.accept.push(t4 - t3);
  hops.resolution.push(t5 - t4);
  baseline.push(b1 - b0);
}
const f = (xs: number[]) => `${percentile(xs, 50).toFixed(1)} / ${percentile(xs, 99).toFixed(1)}`;
console.log(`Travel Rule round trip, inquiry to approval, two instances on loopback (PGlite each), n=${N} after ${WARMUP} warm-up rounds`);
console.log('| step | p50 / p99 ms |');
console.log('|---|---|');
console.log(`| create (POST /v1/travel-rule/messages at A) | ${f(hops.create)} |`);
console.log(`| A's outbox: TRP inquiry → B's receiver | ${f(hops.inquiry)} |`);
console.log(`| B's screening job (list lookup of 1 name) | ${f(hops.screening)} |`);
console.log(`| accept at B (POST …/accept) | ${f(hops.accept)} |`);
console.log(`| B's outbox: TRP resolution → A's callback | ${f(hops.resolution)} |`);
console.log(`| **round trip** (incl. B's list lookup and A's final GET) | **${f(total)}** |`);
console.log(`| baseline: one GET /v1/travel-rule/messages/{id} at A | ${f(baseline)} |`);
console.log(`round trip / baseline at p50: ${(percentile(total, 50) / percentile(baseline, 50)).toFixed(1)}x`);
await A.t.close();
await B.t.close();
process.exit(0);
