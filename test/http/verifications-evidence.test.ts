import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner, enqueueJob } from '../../src/platform/jobs.js';
import { Sealer } from '../../src/platform/crypto.js';
import { checks, RESULT_PURPOSE } from '../../src/modules/checks/kernel/repository.js';
import { readZip, writeZip } from '../../src/modules/verifications/evidence/evidence-zip.js';
import { sha256, verifyEvidenceBundle } from '../../src/modules/verifications/evidence/evidence.js';
import { applySessionRetention, retentionJobHandlers } from '../../src/modules/verifications/retention.js';
import { openPdf } from '../../src/engines/text/pdf-text.js';

let t: TestApp;
let sealer: Sealer;
before(async () => {
  t = await createTestApp();
  sealer = new Sealer(t.config.masterKey);
});
after(() => t.close());
const app = () => t;

const drain = () =>
  new JobRunner({
    db: t.db,
    handlers: { ...buildJobHandlers({ db: t.db, config: t.config, resources: t.resources }), ...retentionJobHandlers(t.db) },
  }).drain();
const body = (reference: string) => ({ journey: 'kyc_standard', subject: { type: 'individual', reference, country: 'DE' } });
// A real 1×1 PNG and a small JPEG-looking payload: bytes must come back exactly.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const SELFIE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('selfie bytes '.repeat(50)), Buffer.from([0xff, 0xd9])]);

async function session(owner: Tenant, reference: string): Promise<string> {
  const res = await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: body(reference) });
  assert.equal(res.statusCode, 201);
  return res.json().id;
}

/** A decided session whose document check has a real sealed result and an image, plus a session-level selfie. */
async function decidedWithMedia(owner: Tenant, reference = 'sandbox_approved', reasons: string[] = ['mrz_valid']) {
  const id = await session(owner, reference);
  await drain();
  const ctx = owner.ctx('sandbox');
  const doc = (await t.db.query<{ id: string }>("SELECT id FROM checks WHERE session_id = $1 AND type = 'document'", [id]))[0]!.id;
  const payload = {
    reasons,
    signals: [
      { name: 'mrz_checksum', value: 'valid' },
      { name: 'document_expiry', value: '2031-04-30' },
    ],
    model: [{ name: 'mrz', version: '5' }],
    timings: { total_ms: 12.5 },
    result: { document_number: 'C01X00T47', given_names: 'ERIKA' },
  };
  await t.db.query('UPDATE checks SET result_sealed = $2, score = 0.97 WHERE id = $1', [
    doc,
    sealer.seal(RESULT_PURPOSE, JSON.stringify(payload)),
  ]);
  const docImage = await checks.insertMedia(
    t.db,
    ctx,
    sealer,
    { checkId: doc },
    { kind: 'document_front', contentType: 'image/png', data: PNG },
  );
  const selfie = await checks.insertMedia(
    t.db,
    ctx,
    sealer,
    { sessionId: id },
    { kind: 'selfie', contentType: 'image/jpeg', data: SELFIE },
  );
  return { id, doc, docImage: docImage.id, selfie: selfie.id };
}

const get = (owner: Tenant, url: string) => t.call('GET', url, { key: owner.sandboxKey });

describe('GET /v1/verifications/{id}/evidence', () => {
  routeSecurityTests('getVerificationEvidence', app, {
    method: 'GET',
    url: (id) => `/v1/verifications/${id}/evidence`,
    scope: 'verifications:read',
    create: (_t, o) => session(o, 'anyone'),
  });

  test('a zip with manifest, session, decision, checks and decrypted media that verifies', async () => {
    const owner = await t.tenant();
    const s = await decidedWithMedia(owner);
    const res = await get(owner, `/v1/verifications/${s.id}/evidence`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/zip');
    assert.equal(res.headers['content-disposition'], `attachment; filename="${s.id}-evidence.zip"`);
    const zip = res.rawPayload;
    const files = new Map(readZip(zip).map((e) => [e.path, e.data]));
    const checkIds = (await t.db.query<{ id: string }>('SELECT id FROM checks WHERE session_id = $1 ORDER BY id', [s.id])).map((r) => r.id);
    assert.deepEqual(
      [...files.keys()].sort(),
      [
        'manifest.json',
        'session.json',
        'decision.json',
        ...checkIds.map((c) => `checks/${c}.json`),
        `media/${s.docImage}.png`,
        `media/${s.selfie}.jpg`,
        'manifest.sha256',
      ].sort(),
    );
    assert.deepEqual(files.get(`media/${s.docImage}.png`), PNG);
    assert.deepEqual(files.get(`media/${s.selfie}.jpg`), SELFIE);
    const manifest = JSON.parse(files.get('manifest.json')!.toString());
    assert.equal(manifest.session_id, s.id);
    assert.ok(!Number.isNaN(Date.parse(manifest.generated_at)));
    assert.equal(manifest.files.length, files.size - 2);
    for (const f of manifest.files) assert.equal(f.sha256, sha256(files.get(f.path)!), f.path);
    assert.equal(files.get('manifest.sha256')!.toString().split(' ')[0], sha256(files.get('manifest.json')!));
    const sess = JSON.parse(files.get('session.json')!.toString());
    assert.equal(sess.status, 'approved');
    assert.equal(sess.subject.reference, 'sandbox_approved');
    assert.deepEqual(
      sess.transitions.map((x: { to: string }) => x.to),
      ['awaiting_subject', 'awaiting_subject', 'processing', 'approved'],
    );
    assert.equal(JSON.parse(files.get('decision.json')!.toString()).decision, 'approved');
    const doc = JSON.parse(files.get(`checks/${s.doc}.json`)!.toString());
    assert.deepEqual(
      [doc.type, doc.status, doc.score, doc.reasons, doc.signals[0].name, doc.result.document_number],
      ['document', 'passed', 0.97, ['mrz_valid'], 'mrz_checksum', 'C01X00T47'],
    );

    const verdict = verifyEvidenceBundle(zip, res.headers['x-manifest-sha256'] as string);
    assert.deepEqual(verdict, { ok: true, session_id: s.id, manifest_sha256: sha256(files.get('manifest.json')!), problems: [] });
    const audit = await t.db.query<{ metadata: { manifest_sha256: string } }>(
      "SELECT metadata FROM audit_events WHERE resource_id = $1 AND action = 'verification.evidence_exported'",
      [s.id],
    );
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.metadata.manifest_sha256, verdict.manifest_sha256);
  });

  test('the verifier finds a tampered file, a rewritten manifest, an added and a missing file', async () => {
    const owner = await t.tenant();
    const s = await decidedWithMedia(owner);
    const zip = (await get(owner, `/v1/verifications/${s.id}/evidence`)).rawPayload;
    const entries = readZip(zip);
    const when = new Date('2026-01-01T00:00:00Z');
    const edit = (fn: (e: { path: string; data: Buffer }[]) => { path: string; data: Buffer }[]) =>
      writeZip(fn(entries.map((e) => ({ ...e }))), when);

    // Unchanged entries re-zipped still verify (the check is on content, not on zip bytes).
    assert.equal(verifyEvidenceBundle(edit((es) => es)).ok, true);

    const selfie = `media/${s.selfie}.jpg`;
    const tampered = verifyEvidenceBundle(
      edit((es) =>
        es.map((e) =>
          e.path === selfie ? { path: e.path, data: Buffer.concat([e.data.subarray(0, 10), Buffer.from('X'), e.data.subarray(11)]) } : e,
        ),
      ),
    );
    assert.equal(tampered.ok, false);
    assert.equal(tampered.problems.length, 1);
    assert.match(tampered.problems[0]!, new RegExp(`^${selfie}: SHA-256`));

    const decision = verifyEvidenceBundle(
      edit((es) =>
        es.map((e) =>
          e.path === 'decision.json' ? { path: e.path, data: Buffer.from(e.data.toString().replace('"approved"', '"declined"')) } : e,
        ),
      ),
    );
    assert.equal(decision.ok, false);
    assert.ok(
      decision.problems.some((p) => p.startsWith('decision.json:')),
      decision.problems.join('; '),
    );

    // A forger who rewrites the manifest and its hash is caught by the hash recorded in the audit row.
    const forged = edit((es) => {
      const m = JSON.parse(es.find((e) => e.path === 'manifest.json')!.data.toString());
      const out = es.map((e) => (e.path === selfie ? { path: e.path, data: Buffer.from('other image') } : e));
      m.files = m.files.map((f: { path: string }) => (f.path === selfie ? { ...f, size: 11, sha256: sha256('other image') } : f));
      const mb = Buffer.from(JSON.stringify(m, null, 2) + '\n');
      return out.map((e) =>
        e.path === 'manifest.json'
          ? { path: e.path, data: mb }
          : e.path === 'manifest.sha256'
            ? { path: e.path, data: Buffer.from(`${sha256(mb)}  manifest.json\n`) }
            : e,
      );
    });
    assert.equal(verifyEvidenceBundle(forged).ok, true, 'self-consistent on its own');
    const audit = await t.db.query<{ metadata: { manifest_sha256: string } }>(
      "SELECT metadata FROM audit_events WHERE resource_id = $1 AND action = 'verification.evidence_exported'",
      [s.id],
    );
    const withAudit = verifyEvidenceBundle(forged, audit[0]!.metadata.manifest_sha256);
    assert.equal(withAudit.ok, false);
    assert.match(withAudit.problems.join('\n'), /manifest\.json: SHA-256 .* differs from the expected/);

    const manifestEdited = verifyEvidenceBundle(
      edit((es) => es.map((e) => (e.path === 'manifest.json' ? { path: e.path, data: Buffer.concat([e.data, Buffer.from(' ')]) } : e))),
    );
    assert.match(manifestEdited.problems.join('\n'), /manifest\.json: SHA-256 .* differs from manifest\.sha256/);

    const extra = verifyEvidenceBundle(edit((es) => [...es, { path: 'media/extra.png', data: PNG }]));
    assert.deepEqual(extra.problems, ['media/extra.png: not listed in the manifest']);
    const missing = verifyEvidenceBundle(edit((es) => es.filter((e) => e.path !== 'session.json')));
    assert.deepEqual(missing.problems, ['session.json: listed in the manifest but missing']);
    assert.deepEqual(verifyEvidenceBundle(Buffer.from('not a zip at all, just text')).problems, [
      'not a zip archive (no end of central directory)',
    ]);
  });

  test('an undecided session has no decision.json', async () => {
    const owner = await t.tenant();
    const id = await session(owner, 'someone_waiting');
    const res = await get(owner, `/v1/verifications/${id}/evidence`);
    assert.equal(res.statusCode, 200);
    const paths = readZip(res.rawPayload).map((e) => e.path);
    assert.ok(!paths.includes('decision.json'));
    assert.ok(paths.includes('session.json'));
    assert.equal(verifyEvidenceBundle(res.rawPayload).ok, true);
  });
});

async function pdfText(pdf: Buffer): Promise<{ pages: number; text: string }> {
  const doc = await openPdf(pdf);
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((x) => ('str' in x ? x.str : '')).join(' ') + '\n';
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, text };
}

describe('GET /v1/verifications/{id}/report', () => {
  routeSecurityTests('getVerificationReport', app, {
    method: 'GET',
    url: (id) => `/v1/verifications/${id}/report`,
    scope: 'verifications:read',
    create: (_t, o) => session(o, 'anyone'),
  });

  test('a PDF pdfjs reads, with subject, decision, checks, trail and page numbers; it renders', async (ctx) => {
    const owner = await t.tenant();
    // Many long reasons force wrapping and more than one page.
    const reasons = Array.from({ length: 60 }, (_, i) => `reason_${i}_${'long_text_without_spaces_'.repeat(6)}`);
    const s = await decidedWithMedia(owner, 'sandbox_declined', reasons);
    const res = await get(owner, `/v1/verifications/${s.id}/report`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/pdf');
    const pdf = res.rawPayload;
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const { pages, text } = await pdfText(pdf);
    assert.ok(pages >= 2, `pages ${pages}`);
    for (const needle of [
      s.id,
      'declined',
      'document_failed',
      'sandbox_declined',
      'DE',
      'kyc_standard (version 1)',
      'mrz_checksum = valid',
      'processing -> declined',
      `page 1 of ${pages}`,
      `page ${pages} of ${pages}`,
    ]) {
      assert.ok(text.includes(needle), `report text lacks ${needle}`);
    }
    assert.ok(text.includes('reason_59_'), 'the last wrapped reason is there');
    // Media are listed with their stored sizes (the report does not decrypt them).
    assert.ok(
      text.includes(`${s.docImage} - document_front, image/png, ${PNG.length} bytes`),
      'the document image is listed with its size',
    );
    assert.ok(text.includes(`${s.selfie} - selfie, image/jpeg, ${SELFIE.length} bytes`), 'the selfie is listed with its size');

    const r = spawnSync('pdftoppm', ['-v']);
    if (r.error) {
      ctx.skip('pdftoppm (poppler-utils) is not installed: the PDF parsed, rendering was not checked');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'report-'));
    try {
      writeFileSync(join(dir, 'r.pdf'), pdf);
      const out = spawnSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', join(dir, 'r.pdf'), join(dir, 'p')]);
      assert.equal(out.status, 0, out.stderr?.toString());
      const png = readdirSync(dir).find((f) => f.endsWith('.png'));
      assert.ok(png, 'a PNG page');
      const bytes = readFileSync(join(dir, png));
      assert.ok(bytes.length > 1000 && bytes.subarray(1, 4).toString() === 'PNG');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('DELETE /v1/verifications/{id}', () => {
  routeSecurityTests('deleteVerification', app, {
    method: 'DELETE',
    url: (id) => `/v1/verifications/${id}`,
    scope: 'verifications:write',
    create: async (_t, o) => {
      const id = await session(o, 'sandbox_approved');
      await drain();
      return id;
    },
  });

  test('removes media and personal data, keeps a tombstone, audits and emits verification.deleted', async () => {
    const owner = await t.tenant();
    const s = await decidedWithMedia(owner);
    const res = await t.call('DELETE', `/v1/verifications/${s.id}`, { key: owner.sandboxKey });
    assert.equal(res.statusCode, 200);
    const tomb = res.json();
    assert.deepEqual(
      [tomb.id, tomb.status, tomb.decision, tomb.subject, tomb.media_deleted, tomb.checks_redacted],
      [s.id, 'approved', 'approved', { type: 'individual', reference: null, country: null }, 2, 5],
    );
    assert.ok(tomb.deleted_at && tomb.decided_at && tomb.completed_at);
    assert.deepEqual(tomb.risk, { score: 0, band: 'low' });

    const media = await t.db.query<{ deleted_at: Date | null; data_sealed: unknown }>(
      'SELECT deleted_at, data_sealed FROM media WHERE id = ANY($1::text[])',
      [[s.docImage, s.selfie]],
    );
    assert.equal(media.length, 2);
    assert.ok(media.every((m) => m.deleted_at && m.data_sealed === null));
    const cks = await t.db.query<{
      result_sealed: string | null;
      redacted_at: Date | null;
      subject_reference: string | null;
      status: string;
    }>('SELECT result_sealed, redacted_at, subject_reference, status FROM checks WHERE session_id = $1', [s.id]);
    assert.ok(cks.every((c) => c.result_sealed === null && c.redacted_at && c.subject_reference === null));
    assert.ok(
      cks.some((c) => c.status === 'passed'),
      'check statuses stay',
    );
    const row = (
      await t.db.query<{ subject_reference: string | null; subject_country: string | null; deleted_at: Date | null; decision: string }>(
        'SELECT subject_reference, subject_country, deleted_at, decision FROM sessions WHERE id = $1',
        [s.id],
      )
    )[0]!;
    assert.deepEqual([row.subject_reference, row.subject_country, row.decision], [null, null, 'approved']);
    assert.ok(row.deleted_at);

    const audit = await t.db.query<{ action: string; metadata: { reason: string } }>(
      "SELECT action, metadata FROM audit_events WHERE resource_id = $1 AND action = 'verification.deleted'",
      [s.id],
    );
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.metadata.reason, 'request');
    const events = await t.db.query<{ data: { id: string; status: string; reason: string } }>(
      "SELECT data FROM events WHERE resource_id = $1 AND type = 'verification.deleted'",
      [s.id],
    );
    assert.equal(events.length, 1);
    assert.deepEqual([events[0]!.data.id, events[0]!.data.status, events[0]!.data.reason], [s.id, 'approved', 'request']);
    const usage = await t.db.query('SELECT 1 FROM usage_records WHERE resource_id = $1', [s.id]);
    assert.equal(usage.length, 1, 'billing stays whole');

    const got = await get(owner, `/v1/verifications/${s.id}`);
    assert.equal(got.statusCode, 200);
    assert.equal(got.json().status, 'approved');
    assert.equal(got.json().subject.reference, null, 'no subject reference after deletion');
    assert.ok(got.json().deleted_at, 'the tombstone says when it was deleted');
    assert.equal(got.json().subject.country, null);
    assert.equal((await get(owner, `/v1/verifications/${s.id}/decision`)).json().decision, 'approved');
    for (const path of ['evidence', 'report']) {
      const r = await get(owner, `/v1/verifications/${s.id}/${path}`);
      assert.equal(r.statusCode, 409, path);
      assert.equal(r.json().error.code, 'conflict');
    }
    assert.equal(await checks.mediaBytes(t.db, owner.ctx('sandbox'), sealer, s.selfie), null);

    const again = await t.call('DELETE', `/v1/verifications/${s.id}`, { key: owner.sandboxKey });
    assert.equal(again.statusCode, 200);
    assert.deepEqual([again.json().deleted_at, again.json().media_deleted, again.json().checks_redacted], [tomb.deleted_at, 0, 0]);
    assert.equal((await t.db.query("SELECT 1 FROM events WHERE resource_id = $1 AND type = 'verification.deleted'", [s.id])).length, 1);
  });

  test('a processing session is 409; a waiting one is cancelled (expired, or abandoned once capture started), then deleted', async () => {
    const owner = await t.tenant();
    // A real processing session (the sandbox_processing subject never decides and is deletable: verifications-ends.test.ts).
    const processing = await session(owner, 'cust_processing');
    const waiting = await session(owner, 'someone');
    const started = await session(owner, 'sandbox_abandoned');
    await drain();
    await t.db.query("UPDATE sessions SET status = 'processing' WHERE id = $1", [processing]);
    // (A referred session can be deleted: test/http/cases.test.ts.)
    const r409 = await t.call('DELETE', `/v1/verifications/${processing}`, { key: owner.sandboxKey });
    assert.equal(r409.statusCode, 409);
    assert.equal(r409.json().error.code, 'conflict');

    const before = Date.now();
    const r = await t.call('DELETE', `/v1/verifications/${waiting}`, { key: owner.sandboxKey });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().status, 'expired');
    const v = (await t.call('GET', `/v1/verifications/${waiting}`, { key: owner.sandboxKey })).json();
    assert.equal(v.transitions.at(-1).event, 'cancelled');
    assert.ok(Date.parse(v.expires_at) <= Date.now() && Date.parse(v.expires_at) >= before - 1000, 'expires_at marks the moment it ended');
    const types = (await t.db.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY id', [waiting])).map(
      (e) => e.type,
    );
    assert.deepEqual(types, ['verification.expired', 'verification.deleted']);

    const a = await t.call('DELETE', `/v1/verifications/${started}`, { key: owner.sandboxKey });
    assert.equal(a.statusCode, 200, a.body);
    assert.equal(a.json().status, 'abandoned');

    // The expiry job has nothing left to do for them.
    await enqueueJob(t.db, 'verifications.expire', {});
    await drain();
    assert.equal((await t.db.query('SELECT 1 FROM events WHERE resource_id = $1', [waiting])).length, 2);
  });

  test('a waiting session past its lifetime is recorded as the expiry job would, then deleted', async () => {
    const owner = await t.tenant();
    const waiting = await session(owner, 'someone');
    await t.db.query("UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE id = $1", [waiting]);
    const r = await t.call('DELETE', `/v1/verifications/${waiting}`, { key: owner.sandboxKey });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().status, 'expired');
    const v = (await t.call('GET', `/v1/verifications/${waiting}`, { key: owner.sandboxKey })).json();
    assert.equal(v.transitions.at(-1).event, 'lifetime_elapsed');
  });
});

describe('retention job verifications.retention', () => {
  test("deletes finished sessions older than the account's retention_days, nothing else", async () => {
    const owner = await t.tenant();
    const keeper = await t.tenant();
    const old = await decidedWithMedia(owner);
    const recent = await decidedWithMedia(owner);
    const oldProcessing = await session(owner, 'sandbox_processing');
    const otherAccount = await decidedWithMedia(keeper);
    await drain();
    await t.db.query("UPDATE sessions SET created_at = now() - interval '31 days' WHERE id = ANY($1::text[])", [
      [old.id, oldProcessing, otherAccount.id],
    ]);
    await t.db.query('UPDATE accounts SET retention_days = 30 WHERE id = $1', [owner.accountId]);
    // keeper has no retention period (null): kept however old.

    await enqueueJob(t.db, 'verifications.retention', {});
    await drain();
    const deleted = async (id: string) =>
      (await t.db.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM sessions WHERE id = $1', [id]))[0]!.deleted_at !== null;
    assert.equal(await deleted(old.id), true);
    assert.equal(await deleted(recent.id), false);
    assert.equal(await deleted(oldProcessing), false);
    assert.equal(await deleted(otherAccount.id), false);
    const audit = await t.db.query<{ metadata: { reason: string }; actor_type: string }>(
      "SELECT metadata, actor_type FROM audit_events WHERE resource_id = $1 AND action = 'verification.deleted'",
      [old.id],
    );
    assert.deepEqual([audit[0]!.metadata.reason, audit[0]!.actor_type], ['retention', 'system']);
    assert.equal((await get(owner, `/v1/verifications/${recent.id}/evidence`)).statusCode, 200);
    assert.equal((await get(owner, `/v1/verifications/${old.id}/evidence`)).statusCode, 409);
    assert.equal(await applySessionRetention(t.db), 0, 'a second run finds nothing');
  });
});
