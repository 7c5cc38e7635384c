import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { DEFAULT_JOURNEYS } from '../../src/modules/journeys/defaults.js';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { readFileSync } from 'node:fs';

const dataDir = sharedDataDir();
/** Enrolment needs one clear face: a photo of the shared labelled set (absent from a bare clone). */
const face = () => (dataDir ? readFileSync(`${dataDir}/faces/deepface_subset/images/img5.jpg`).toString('base64') : null);
const NEEDS_SHARED: Record<string, string> = { createFaceEnrollment: MISSING_DATA };

/**
 * Every POST of /openapi.json, sent twice with one Idempotency-Key: the second answer replays the first
 * (same status and body, Idempotent-Replayed: true). The table below must name every POST operation,
 * so a new one cannot ship without its replay path tested.
 */

let t: TestApp;
let tenant: Tenant;
let png: string;
let pdf: string;
before(async () => {
  t = await createTestApp();
  tenant = await t.tenant();
  png = (
    await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 120, g: 130, b: 140 } } })
      .png()
      .toBuffer()
  ).toString('base64');
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText('Acme Energy Ltd — Electricity bill — Jane Doe, 1 High Street, London SW1A 1AA — 01/11/2026', {
    x: 40,
    y: 780,
    size: 11,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  pdf = Buffer.from(await doc.save()).toString('base64');
});
after(() => t.close());

type Request = { url: string; body?: unknown };
const key = () => tenant.sandboxKey;
const post = (url: string, body: unknown, idem?: string) =>
  t.call('POST', url, { key: key(), body, headers: idem ? { 'idempotency-key': idem } : {} });
const created = async (url: string, body: unknown): Promise<{ id: string } & Record<string, unknown>> => {
  const r = await post(url, body);
  assert.ok(r.statusCode < 300, `${url}: ${r.statusCode} ${r.body}`);
  return r.json();
};

const webhook = () => created('/v1/webhooks', { url: 'https://example.org/hook', event_types: ['verification.completed'] });
const journey = DEFAULT_JOURNEYS.find((j) => j.key === 'kyc_standard')!;

/** How to make one valid request per POST operation (creating what its path names first). */
const REQUESTS: Record<string, () => Promise<Request>> = {
  searchBusinesses: async () => ({ url: '/v1/businesses/search', body: { query: 'Example Holdings' } }),
  attachBusinessDocument: async () => ({
    url: `/v1/businesses/${(await created('/v1/businesses', { manual: { name: 'Acme Energy Ltd' }, screen: false })).id}/documents`,
    body: { file: pdf },
  }),
  createBusiness: async () => ({
    url: '/v1/businesses',
    body: { manual: { name: 'Replay Trading Ltd', country: 'GB' }, reference: 'replay' },
  }),
  createListEntry: async () => ({
    url: '/v1/lists/blocklist/entries',
    body: { kind: 'email', value: 'replay@example.org', reason: 'test' },
  }),
  createWebhookDestination: async () => ({
    url: '/v1/webhooks',
    body: { url: 'https://example.org/replay', event_types: ['verification.completed'] },
  }),
  rotateWebhookSecret: async () => ({ url: `/v1/webhooks/${(await webhook()).id}/rotate-secret`, body: { overlap_hours: 1 } }),
  sendWebhookTest: async () => ({ url: `/v1/webhooks/${(await webhook()).id}/test` }),
  createDocumentCheck: async () => ({ url: '/v1/checks/document', body: { front: png } }),
  createLivenessCheck: async () => ({ url: '/v1/checks/liveness', body: { image: png } }),
  createFaceMatchCheck: async () => ({ url: '/v1/checks/face-match', body: { selfie: png, reference: png } }),
  createAgeEstimationCheck: async () => ({ url: '/v1/checks/age-estimation', body: { image: png, minimum_age: 18 } }),
  createFaceSearchCheck: async () => ({ url: '/v1/checks/face-search', body: { image: png } }),
  createFaceEnrollment: async () => ({
    url: '/v1/checks/face-search/enrollments',
    body: { image: face()!, subject_reference: 'cust_replay' },
  }),
  createScreeningCheck: async () => ({ url: '/v1/checks/screening', body: { name: 'Jane Replay' } }),
  checkProofOfAddress: async () => ({ url: '/v1/checks/proof-of-address', body: { document: pdf, subject_name: 'Jane Doe' } }),
  checkDocumentAi: async () => ({ url: '/v1/checks/document-ai', body: { document: pdf, fields: [{ name: 'customer', anchor: 'bill' }] } }),
  // Without a configured channel a sandbox key gets the sandbox channel (code 000000, nothing sent).
  startContactCheck: async () => ({ url: '/v1/checks/contact', body: { channel: 'email', destination: 'replay@example.org' } }),
  confirmContactCheck: async () => ({
    url: `/v1/checks/contact/${(await created('/v1/checks/contact', { channel: 'sms', destination: '+447400123456' })).id}/confirm`,
    body: { code: '000000' },
  }),
  enrolMonitoredSubject: async () => ({
    url: '/v1/monitoring/subjects',
    body: { subject_reference: 'cust_monitor_replay', name: 'Jane Replay' },
  }),
  createJourney: async () => ({ url: '/v1/journeys', body: { key: 'replay_journey', name: 'Replay', definition: journey.definition } }),
  publishJourneyVersion: async () => {
    await created('/v1/journeys', { key: 'replay_publish', name: 'Replay', definition: journey.definition });
    return { url: '/v1/journeys/replay_publish/versions/1/publish' };
  },
  createVerification: async () => ({
    url: '/v1/verifications',
    body: { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cust_replay' } },
  }),
  importVerifications: async () => ({
    url: '/v1/verifications/imports',
    body: {
      provider: 'onfido',
      records: [
        {
          external_id: 'replay-1',
          subject: { type: 'individual', reference: 'cust_imp' },
          journey: 'KYC',
          status: 'approved',
          created_at: '2025-01-01T00:00:00Z',
          completed_at: '2025-01-01T00:10:00Z',
          checks: [],
        },
      ],
    },
  }),
};

/**
 * POST operations whose success needs a peer or a long sequence another test file already drives,
 * each with where its replay is tested. Kept short on purpose.
 */
const ELSEWHERE: Record<string, string> = {
  submitCapture: 'capture.test.ts (a session token, not an API key; submission is idempotent by state)',
  redeliverWebhook: 'webhooks.test.ts (needs a delivery the dispatcher made)',
  resendContactCheck: 'contact.test.ts (a resend waits out a cooldown after the start)',
  recordVerificationDecision: 'verifications-sandbox.test.ts (needs a referred session the pipeline produced)',
};

test('the table names every POST operation of the OpenAPI document', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const posts = Object.values(doc.paths).flatMap((item) => (item.post ? [item.post.operationId] : []));
  const covered = new Set([...Object.keys(REQUESTS), ...Object.keys(ELSEWHERE)]);
  assert.deepEqual(
    posts.filter((p) => !covered.has(p)),
    [],
    'POST operations without a replay test',
  );
  assert.deepEqual(
    [...covered].filter((c) => !posts.includes(c)),
    [],
    'entries for operations that do not exist',
  );
});

for (const [operationId, make] of Object.entries(REQUESTS)) {
  test(
    `${operationId}: a second request with the same Idempotency-Key replays the first`,
    { skip: !dataDir && NEEDS_SHARED[operationId] ? NEEDS_SHARED[operationId] : false },
    async () => {
      const req = await make();
      const first = await post(req.url, req.body, `replay-${operationId}`);
      assert.ok(
        first.statusCode >= 200 && first.statusCode < 300,
        `${operationId}: first answer ${first.statusCode} ${first.body.slice(0, 300)}`,
      );
      const again = await post(req.url, req.body, `replay-${operationId}`);
      assert.equal(again.statusCode, first.statusCode, again.body.slice(0, 300));
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
    },
  );
}
