import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { ocrBAvailable, renderDocument } from '../fixtures/documents/render.js';
import { ANNA } from '../fixtures/documents/specimen-mrz.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { enqueueJob, JobRunner } from '../../src/platform/jobs.js';
import { Sealer } from '../../src/platform/crypto.js';
import { checks } from '../../src/modules/checks/kernel/repository.js';
import { startCapture, submitCapture } from '../../src/modules/verifications/complete.js';
import { PIPELINE_QUEUE } from '../../src/modules/verifications/pipeline/pipeline.js';
import { ENROL_QUEUE } from '../../src/modules/verifications/pipeline/enrol-approved.js';
import { sessionFields } from '../../src/modules/verifications/fields.js';

/**
 * The check pipeline end to end: media captured into a session (as the capture API stores it),
 * capture submitted, the job runs the journey's engines and the session decides. Every verdict here
 * comes from the engines on real images: a rendered specimen passport carrying one person's portrait,
 * selfies of the same and of another person (labelled deepface subset).
 */
let t: TestApp;
let sealer: Sealer;
before(async () => {
  t = await createTestApp();
  sealer = new Sealer(t.config.masterKey);
});
after(() => t.close());

const dataDir = sharedDataDir();
const noFont = ocrBAvailable() ? false : 'OCR-B font (Debian fonts-ocr-b) not installed; specimen documents cannot be rendered';
const face = (name: string) => readFileSync(`${dataDir}/faces/deepface_subset/images/${name}`);
const drain = () =>
  new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources, sealer }) }).drain();

type Env = 'sandbox' | 'production';
const keyOf = (o: Tenant, env: Env) => (env === 'sandbox' ? o.sandboxKey : o.productionKey);

async function session(o: Tenant, body: Record<string, unknown>, env: Env = 'sandbox') {
  const res = await t.call('POST', '/v1/verifications', { key: keyOf(o, env), body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; checks: { type: string; id: string }[] };
}

/** What the capture API does on upload and submit, then the pipeline job. */
async function captureAndRun(o: Tenant, id: string, media: { kind: string; data: Buffer; contentType?: string }[], env: Env = 'sandbox') {
  const ctx = o.ctx(env);
  for (const m of media)
    await checks.insertMedia(
      t.db,
      ctx,
      sealer,
      { sessionId: id },
      { kind: m.kind, contentType: m.contentType ?? 'image/jpeg', data: m.data },
    );
  if (media.length) await startCapture(t.db, ctx, id);
  await submitCapture(t.db, ctx, id);
  await enqueueJob(t.db, PIPELINE_QUEUE, { account_id: o.accountId, environment: env, session_id: id }, { dedupeKey: `pipeline:${id}` });
  await drain();
  const v = (await t.call('GET', `/v1/verifications/${id}`, { key: keyOf(o, env) })).json();
  const status = Object.fromEntries(v.checks.map((c: { type: string; status: string }) => [c.type, c.status]));
  return { v, status };
}

describe('session pipeline on real captures', { skip: noFont || (dataDir ? false : MISSING_DATA) }, () => {
  let passport: Buffer;
  before(async () => {
    // person_01's portrait printed on the specimen passport; selfies img2 (person_01) and img8 (person_03).
    passport = await renderDocument({ kind: 'td3', person: ANNA, portrait: face('img5.jpg') });
  });

  test('same person: every engine runs, the journey decides approved, results and fields are stored', async () => {
    const o = await t.tenant();
    const s = await session(o, { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cus_same' } });
    const { v, status } = await captureAndRun(o, s.id, [
      { kind: 'document_front', data: passport, contentType: 'image/png' },
      { kind: 'selfie', data: face('img2.jpg') },
    ]);
    assert.equal(status.document, 'passed');
    assert.equal(status.face_match, 'passed');
    assert.equal(status.sanctions_pep, 'no_match');
    assert.equal(status.liveness, 'passed');
    assert.equal(v.status, 'approved');
    assert.equal(v.decision, 'approved');
    assert.deepEqual(v.risk, { score: 0, band: 'low' });
    assert.deepEqual(
      v.transitions.map((x: { event: string }) => x.event),
      ['token_issued', 'capture_started', 'capture_submitted', 'checks_passed'],
    );

    // Each session check is a check object with the engine's result, signals and its media.
    const doc = (await t.call('GET', `/v1/checks/${s.checks.find((c) => c.type === 'document')!.id}`, { key: o.sandboxKey })).json();
    assert.equal(doc.session_id, s.id);
    assert.equal(doc.result.fields.surname, 'ERIKSSON');
    assert.equal(doc.result.mrz.valid, true);
    assert.deepEqual(doc.media.map((m: { kind: string }) => m.kind).sort(), ['document_front', 'document_portrait']);
    const fm = (await t.call('GET', `/v1/checks/${s.checks.find((c) => c.type === 'face_match')!.id}`, { key: o.sandboxKey })).json();
    assert.ok(fm.score >= 0.65, `similarity ${fm.score}`);
    assert.equal(fm.result.reference_type, 'document');
    const scr = (await t.call('GET', `/v1/checks/${s.checks.find((c) => c.type === 'sanctions_pep')!.id}`, { key: o.sandboxKey })).json();
    assert.ok(scr.result.list_versions.sandbox !== undefined, 'screened against the sandbox list');

    const fields = await sessionFields.read(t.db, o.ctx('sandbox'), sealer, s.id);
    assert.equal(fields?.surname, 'ERIKSSON');
    assert.equal(fields?.given_names, 'ANNA MARIA');
    assert.equal(fields?.date_of_birth, '1974-08-12');

    const events = await t.db.query<{ type: string; data: { decision: string; checks: unknown[] } }>(
      "SELECT type, data FROM events WHERE resource_id = $1 AND type LIKE 'verification.%'",
      [s.id],
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['verification.completed'],
    );
    assert.equal(events[0]!.data.decision, 'approved');
  });

  test('an approved kyc_standard session enrols the subject for face search and monitoring, once', async () => {
    const o = await t.tenant();
    const s = await session(o, { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cus_enrol', country: 'SE' } });
    const { v } = await captureAndRun(o, s.id, [
      { kind: 'document_front', data: passport, contentType: 'image/png' },
      { kind: 'selfie', data: face('img2.jpg') },
    ]);
    assert.equal(v.decision, 'approved');
    // The enrolment job ran in the same drain; running it again adds nothing.
    await enqueueJob(t.db, ENROL_QUEUE, { account_id: o.accountId, environment: 'sandbox', session_id: s.id });
    await drain();
    const enrolled = await t.db.query<{ subject_reference: string }>(
      'SELECT subject_reference FROM face_enrollments WHERE session_id = $1',
      [s.id],
    );
    assert.deepEqual(
      enrolled.map((r) => r.subject_reference),
      ['cus_enrol'],
    );
    const monitored = (await t.call('GET', '/v1/monitoring/subjects?subject_reference=cus_enrol', { key: o.sandboxKey })).json();
    assert.equal(monitored.data.length, 1, JSON.stringify(monitored));
    assert.equal(monitored.data[0].name, 'ANNA MARIA ERIKSSON');
    assert.equal(monitored.data[0].date_of_birth, '1974-08-12');
    // Another photo of the same person finds the approved subject.
    const found = await t.call('POST', '/v1/checks/face-search', {
      key: o.sandboxKey,
      body: { image: face('img6.jpg').toString('base64') },
    });
    assert.equal(found.statusCode, 200, found.body);
    assert.equal(found.json().result.hits[0]?.subject_reference, 'cus_enrol', JSON.stringify(found.json().result));

    // Deleting the session erases the embedding it enrolled.
    assert.equal((await t.call('DELETE', `/v1/verifications/${s.id}`, { key: o.sandboxKey })).statusCode, 200);
    const erased = await t.db.query<{ embedding_bytes: unknown; deleted_at: Date | null }>(
      'SELECT embedding_bytes, deleted_at FROM face_enrollments WHERE session_id = $1',
      [s.id],
    );
    assert.equal(erased[0]!.embedding_bytes, null);
    assert.ok(erased[0]!.deleted_at);
  });

  test("another person's selfie: face match fails and the journey declines with its reason code", async () => {
    const o = await t.tenant();
    const s = await session(o, { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cus_other' } });
    const { v, status } = await captureAndRun(o, s.id, [
      { kind: 'document_front', data: passport, contentType: 'image/png' },
      { kind: 'selfie', data: face('img8.jpg') },
    ]);
    assert.equal(status.document, 'passed');
    assert.equal(status.face_match, 'failed');
    assert.equal(v.decision, 'declined');
    assert.ok(v.reason_codes.includes('face_match_failed'), JSON.stringify(v.reason_codes));
  });

  test('a blurred, unreadable document and no selfie: the checks fail on the capture, not the job', async () => {
    const o = await t.tenant();
    const s = await session(o, { journey: 'kyc_standard', subject: { type: 'individual', reference: 'cus_blur' } });
    const blurred = await sharp(passport).blur(12).jpeg().toBuffer();
    const { v, status } = await captureAndRun(o, s.id, [{ kind: 'document_front', data: blurred }]);
    assert.notEqual(status.document, 'passed');
    assert.equal(status.liveness, 'failed');
    // No name could be read, so screening could not run: a reviewer must screen (never a silent no_match).
    assert.equal(status.sanctions_pep, 'potential_match');
    assert.equal(v.decision, 'declined');
    const live = (await t.call('GET', `/v1/checks/${s.checks.find((c) => c.type === 'liveness')!.id}`, { key: o.sandboxKey })).json();
    assert.deepEqual(live.reasons, ['capture_missing']);
    const scr = (await t.call('GET', `/v1/checks/${s.checks.find((c) => c.type === 'sanctions_pep')!.id}`, { key: o.sandboxKey })).json();
    assert.deepEqual(scr.reasons, ['screening_no_name']);
  });
});

describe('session pipeline without a document', () => {
  test('screening-only journey screens the declared name: a listed person is a match and declines', async () => {
    const o = await t.tenant();
    const s = await session(o, {
      journey: 'kyc_screening_only',
      subject: {
        type: 'individual',
        reference: 'cus_listed',
        given_names: 'Sandbox Sanctioned',
        surname: 'Person',
        date_of_birth: '1970-01-01',
      },
    });
    const { v, status } = await captureAndRun(o, s.id, []);
    assert.equal(status.sanctions_pep, 'match');
    assert.equal(v.decision, 'declined');
    // The match declines; the band it pushes the score into (high) is reported too.
    assert.deepEqual(v.reason_codes, ['sanctions_pep_match', 'risk_band_high']);
    const scr = (await t.call('GET', `/v1/checks/${s.checks.find((c) => c.type === 'sanctions_pep')!.id}`, { key: o.sandboxKey })).json();
    assert.equal(scr.result.hits[0].entity_id, 'sandbox:sanctioned-person');
  });

  test('screening-only journey, unlisted declared name: no_match, approved', async () => {
    const o = await t.tenant();
    const s = await session(o, {
      journey: 'kyc_screening_only',
      subject: { type: 'individual', reference: 'cus_clean', given_names: 'Maria', surname: 'Lindqvist' },
    });
    const { v, status } = await captureAndRun(o, s.id, []);
    assert.equal(status.sanctions_pep, 'no_match');
    assert.equal(v.decision, 'approved');
  });

  test('production with no list imported: screening cannot run, so the session is referred; a name correction is recorded and screening stays for review', async () => {
    const o = await t.tenant();
    const s = await session(
      o,
      {
        journey: 'kyc_screening_only',
        subject: { type: 'individual', reference: 'cus_nolists', given_names: 'Maria', surname: 'Lindqvist' },
      },
      'production',
    );
    const { v, status } = await captureAndRun(o, s.id, [], 'production');
    assert.equal(status.sanctions_pep, 'potential_match');
    assert.equal(v.status, 'referred');
    const scrId = s.checks.find((c) => c.type === 'sanctions_pep')!.id;
    const scr = (await t.call('GET', `/v1/checks/${scrId}`, { key: o.productionKey })).json();
    assert.deepEqual(scr.reasons, ['check_unavailable']);

    const res = await t.call('PATCH', `/v1/verifications/${s.id}`, {
      key: o.productionKey,
      body: { fields: { surname: 'Lindquist' }, reason: 'typo in the declared name' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const w = res.json();
    assert.equal(w.status, 'referred');
    assert.equal(w.fields.surname, 'Lindquist');
    assert.deepEqual([w.corrections[0].rescreening.before, w.corrections[0].rescreening.after], ['potential_match', 'potential_match']);
    const again = (await t.call('GET', `/v1/checks/${scrId}`, { key: o.productionKey })).json();
    assert.deepEqual([again.status, again.reasons], ['potential_match', ['check_unavailable']]);
  });

  test('the last failed attempt refers the session to review instead of leaving it processing', async () => {
    const o = await t.tenant();
    const s = await session(o, {
      journey: 'kyc_screening_only',
      subject: { type: 'individual', reference: 'cus_broken', given_names: 'Maria', surname: 'Lindqvist' },
    });
    const ctx = o.ctx('sandbox');
    // A medium whose sealed bytes were damaged: opening it throws, on every attempt.
    // Any image will do (its bytes are damaged next), so this needs no shared data.
    const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();
    await checks.insertMedia(t.db, ctx, sealer, { sessionId: s.id }, { kind: 'selfie', contentType: 'image/jpeg', data: jpeg });
    await t.db.query("UPDATE media SET data_sealed = decode('00', 'hex') WHERE session_id = $1", [s.id]);
    await startCapture(t.db, ctx, s.id);
    await submitCapture(t.db, ctx, s.id);
    await enqueueJob(
      t.db,
      PIPELINE_QUEUE,
      { account_id: o.accountId, environment: 'sandbox', session_id: s.id },
      { dedupeKey: `pipeline:${s.id}`, maxAttempts: 2 },
    );
    await drain();
    await t.db.query("UPDATE jobs SET run_at = now() WHERE queue = $1 AND payload->>'session_id' = $2", [PIPELINE_QUEUE, s.id]);
    await drain();
    const v = (await t.call('GET', `/v1/verifications/${s.id}`, { key: o.sandboxKey })).json();
    assert.equal(v.status, 'referred');
    assert.deepEqual(v.reason_codes, ['sanctions_pep_potential_match']);
    const audit = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE resource_id = $1 AND action = 'verification.pipeline_failed'",
      [s.id],
    );
    assert.equal(audit.length, 1);
  });

  test('a retried job after the decision changes nothing', async () => {
    const o = await t.tenant();
    const s = await session(o, {
      journey: 'kyc_screening_only',
      subject: { type: 'individual', reference: 'cus_twice', given_names: 'Maria', surname: 'Lindqvist' },
    });
    await captureAndRun(o, s.id, []);
    await enqueueJob(t.db, PIPELINE_QUEUE, { account_id: o.accountId, environment: 'sandbox', session_id: s.id });
    await drain();
    const trail = await t.db.query('SELECT event FROM session_transitions WHERE session_id = $1', [s.id]);
    assert.equal(trail.length, 3); // token_issued, capture_submitted, checks_passed
    const failed = await t.db.query("SELECT 1 FROM jobs WHERE queue = $1 AND state = 'failed'", [PIPELINE_QUEUE]);
    assert.equal(failed.length, 0);
  });
});
