import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { captureSecurityTests } from '../helpers/route-security.js';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { ocrBAvailable, renderDocument } from '../fixtures/documents/render.js';
import { ANNA } from '../fixtures/documents/specimen-mrz.js';
import { completeSessionChecks } from '../../src/modules/verifications/complete.js';
import { QUALITY_ISSUE_CODES } from '../../src/modules/capture/schemas.js';
import { hostedPathPrefix } from '../../src/modules/capture/hosted-page.js';

const RATE = 40;
let t: TestApp;
before(async () => {
  // A small per-token budget so the limit itself can be tested.
  t = await createTestApp({ env: { CAPTURE_RATE_LIMIT_PER_MINUTE: String(RATE) } });
});
after(() => t.close());

const dataDir = sharedDataDir();
const noFont = ocrBAvailable() ? false : 'OCR-B font (Debian fonts-ocr-b) not installed; specimen documents cannot be rendered';
const face = (name: string) => readFileSync(`${dataDir}/faces/deepface_subset/images/${name}`);

interface Created {
  id: string;
  session_token: string;
  hosted_url: string;
}
async function createSession(owner: Tenant, over: Record<string, unknown> = {}): Promise<Created> {
  const res = await t.call('POST', '/v1/verifications', {
    key: owner.sandboxKey,
    body: {
      journey: 'kyc_standard',
      subject: { type: 'individual', reference: 'cust_capture' },
      redirect_url: 'https://example.com/done',
      ...over,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}
const get = (token: string | null, headers: Record<string, string> = {}) => t.call('GET', '/capture/v1/session', { key: token, headers });
const put = (token: string, kind: string, data: Buffer, type = 'image/jpeg') =>
  t.app.inject({
    method: 'PUT',
    url: `/capture/v1/media/${kind}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    payload: data,
  });
const submit = (token: string) => t.call('POST', '/capture/v1/submit', { key: token });
const plain = (w: number, h: number, colour: string) =>
  sharp({ create: { width: w, height: h, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

const session = async (_t: TestApp, owner: Tenant) => createSession(owner);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
captureSecurityTests('getCaptureSession', () => t, { method: 'GET', url: '/capture/v1/session', session });
captureSecurityTests('submitCapture', () => t, { method: 'POST', url: '/capture/v1/submit', session });
captureSecurityTests('issueLivenessChallenge', () => t, { method: 'POST', url: '/capture/v1/challenge', session });
captureSecurityTests('uploadCaptureMedia', () => t, {
  method: 'PUT',
  url: '/capture/v1/media/selfie',
  session,
  body: jpeg,
  contentType: 'image/jpeg',
  malformed: { url: '/capture/v1/media/passport_scan', field: 'kind' },
});
captureSecurityTests('uploadChallengeFrame', () => t, {
  method: 'PUT',
  url: '/capture/v1/challenge/frames/0',
  session,
  body: jpeg,
  contentType: 'image/jpeg',
  malformed: { url: '/capture/v1/challenge/frames/x', field: 'index' },
});

describe('hosted page', () => {
  test('GET /hosted/s/:id serves the page with a strict CSP, no referrer and no caching; assets load', async () => {
    const owner = await t.tenant();
    const s = await createSession(owner);
    assert.equal(hostedPathPrefix(t.config.hostedBaseUrl, t.config.publicBaseUrl), '/hosted');
    const page = await t.app.inject({ method: 'GET', url: new URL(s.hosted_url).pathname + new URL(s.hosted_url).search });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.equal(page.headers['cache-control'], 'no-store');
    // No inline script: the only script is the module file.
    assert.deepEqual(page.body.match(/<script[^>]*>/g), ['<script type="module" src="../assets/capture.js">']);
    assert.ok(page.body.includes(`content="${t.config.publicBaseUrl}/capture/v1"`));
    assert.ok(!page.body.includes(s.session_token), 'the page never echoes the token');
    for (const [file, type] of [
      ['capture.js', 'text/javascript'],
      ['capture.css', 'text/css'],
    ]) {
      const a = await t.app.inject({ method: 'GET', url: `/hosted/assets/${file}` });
      assert.equal(a.statusCode, 200, file);
      assert.match(String(a.headers['content-type']), new RegExp(`^${type}`));
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/hosted/assets/secrets.txt' })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/hosted/s/..%2F..%2Fetc' })).statusCode, 404);
  });

  test('a hosted base on another host is served under /hosted for the reverse proxy', () => {
    assert.equal(hostedPathPrefix('https://verify.example.com', 'https://api.example.com'), '/hosted');
    assert.equal(hostedPathPrefix('https://api.example.com/kyc', 'https://api.example.com'), '/kyc');
  });
});

describe('capture API authentication', () => {
  test('no token, a wrong token, an API key or an expired token is 401 unauthenticated; the token never opens /v1', async () => {
    const owner = await t.tenant();
    const s = await createSession(owner);
    for (const token of [null, 'vst_' + 'A'.repeat(43), owner.sandboxKey, owner.productionKey]) {
      const res = await get(token);
      assert.equal(res.statusCode, 401, String(token));
      assert.equal(res.json().error.code, 'unauthenticated');
      assert.ok(res.json().error.request_id);
      assert.equal(res.headers['access-control-allow-origin'], '*', 'errors carry CORS headers so browsers can read them');
    }
    assert.equal((await put(owner.sandboxKey, 'selfie', Buffer.from('x'))).statusCode, 401);
    assert.equal((await submit(owner.sandboxKey)).statusCode, 401);
    assert.equal((await t.call('GET', `/v1/verifications/${s.id}`, { key: s.session_token })).statusCode, 401);
    assert.equal((await t.call('GET', '/v1/verifications', { key: s.session_token })).statusCode, 401);
    assert.equal((await get(s.session_token)).statusCode, 200);
    await t.db.query('UPDATE sessions SET expires_at = now(), token_expires_at = now() WHERE id = $1', [s.id]);
    const expired = await get(s.session_token);
    assert.equal(expired.statusCode, 401);
    assert.match(expired.json().error.message, /expired/);
  });

  test('CORS: a preflight from any origin is answered without a token', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/capture/v1/media/selfie',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.match(String(res.headers['access-control-allow-methods']), /PUT/);
    assert.match(String(res.headers['access-control-allow-headers']), /Authorization/);
    assert.match(String(res.headers['access-control-allow-headers']), /Content-Type/);
  });

  test(`each token has its own budget of ${RATE} calls a minute (429 with Retry-After)`, async () => {
    const owner = await t.tenant();
    const [a, b] = [await createSession(owner), await createSession(owner)];
    let last = await get(a.session_token);
    assert.equal(last.headers['x-ratelimit-limit'], String(RATE));
    for (let i = 1; i < RATE; i++) last = await get(a.session_token);
    assert.equal(last.statusCode, 200);
    last = await get(a.session_token);
    assert.equal(last.statusCode, 429);
    assert.equal(last.json().error.code, 'rate_limited');
    assert.ok(Number(last.headers['retry-after']) >= 1);
    assert.equal((await get(b.session_token)).statusCode, 200, 'another session is not affected');
  });
});

describe('GET /capture/v1/session', () => {
  test('steps come from the pinned journey; the decision is never shown', async () => {
    const owner = await t.tenant();
    const s = await createSession(owner);
    const res = await get(s.session_token);
    assert.equal(res.statusCode, 200, res.body);
    const v = res.json();
    assert.equal(v.id, s.id);
    assert.equal(v.status, 'awaiting_subject');
    assert.equal(v.journey, 'kyc_standard');
    assert.equal(v.redirect_url, 'https://example.com/done');
    assert.deepEqual(
      v.steps.map((x: { kind: string; required: boolean; captured: boolean }) => `${x.kind}:${x.required}:${x.captured}`),
      ['document_front:true:false', 'document_back:false:false', 'selfie:true:false'],
    );
    assert.match(v.steps[1].description, /ID card/);
    assert.deepEqual(v.accepted_document_types, ['passport', 'id_card', 'driving_licence']);
    assert.equal(v.max_upload_bytes, 15 * 1024 * 1024);
    assert.deepEqual(
      v.checks.map((c: { type: string; status: string }) => `${c.type}:${c.status}`),
      ['document:pending', 'liveness:pending', 'face_match:pending', 'sanctions_pep:pending', 'risk_score:pending'],
    );
    assert.equal(res.headers['access-control-allow-origin'], '*');

    // A journey with proof of address asks for it; one with screening only asks for nothing.
    const poa = {
      key: 'kyc_poa',
      name: 'poa',
      publish: true,
      definition: {
        checks: [{ type: 'proof_of_address' }, { type: 'age_estimation' }],
        decision_rules: { decline: [], refer: [], decline_at_band: null, refer_at_band: null },
        risk_scoring: { signals: [], medium_from: 25, high_from: 70 },
        session_lifetime_seconds: 3600,
      },
    };
    assert.equal((await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: poa })).statusCode, 201);
    const p = await createSession(owner, { journey: 'kyc_poa' });
    const pv = (await get(p.session_token)).json();
    assert.deepEqual(
      pv.steps.map((x: { kind: string }) => x.kind),
      ['proof_of_address', 'selfie'],
    );
    assert.deepEqual(pv.accepted_document_types, []);
  });

  test('after the decision the subject sees complete, never approved, a risk or check outcomes', async () => {
    const owner = await t.tenant();
    const s = await createSession(owner, { journey: 'kyc_screening_only' });
    assert.deepEqual((await get(s.session_token)).json().steps, []);
    assert.equal((await submit(s.session_token)).statusCode, 202);
    assert.equal((await get(s.session_token)).json().status, 'processing');
    await completeSessionChecks(t.db, owner.ctx(), s.id, [{ type: 'sanctions_pep', status: 'potential_match' }]);
    const v = (await get(s.session_token)).json();
    assert.equal(v.status, 'complete');
    assert.ok(
      v.checks.every((c: { status: string }) => c.status === 'complete'),
      JSON.stringify(v.checks),
    );
    for (const hidden of ['decision', 'risk', 'reason_codes', 'subject']) assert.ok(!(hidden in v), hidden);
    assert.doesNotMatch(JSON.stringify(v), /referred|potential_match|cust_capture/);
  });
});

describe('PUT /capture/v1/media/:kind and POST /capture/v1/submit', () => {
  test('submit honours Idempotency-Key like every POST: the replay returns the first 202', async () => {
    const owner = await t.tenant();
    const s = await createSession(owner, { journey: 'kyc_screening_only' });
    const headers = { 'idempotency-key': 'capture-submit-1' };
    const first = await t.call('POST', '/capture/v1/submit', { key: s.session_token, headers });
    assert.equal(first.statusCode, 202, first.body);
    const replay = await t.call('POST', '/capture/v1/submit', { key: s.session_token, headers });
    assert.equal(replay.statusCode, 202);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.json(), first.json());
    assert.equal((await submit(s.session_token)).statusCode, 409, 'without the key a second submit conflicts');
  });

  test('refused uploads: wrong type, too large, empty, a PDF as selfie, an undecodable image, a kind the journey lacks', async () => {
    const owner = await t.tenant();
    const s = await createSession(owner);
    const cases: [string, Buffer, string, string, RegExp][] = [
      ['selfie', Buffer.from('plain text, not a picture'), 'image/jpeg', 'file', /must be JPEG, PNG, WebP, HEIC/],
      ['document_front', Buffer.alloc(15 * 1024 * 1024 + 1, 0xff), 'image/jpeg', 'file', /larger than the limit of 15 MB/],
      ['selfie', Buffer.from('%PDF-1.4\n%%EOF'), 'application/pdf', 'file', /must be/],
      ['selfie', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]), 'image/jpeg', 'file', /could not be read/],
      ['proof_of_address', await plain(400, 300, '#fff'), 'image/jpeg', 'kind', /does not capture proof_of_address/],
      ['passport_photo', await plain(400, 300, '#fff'), 'image/jpeg', 'kind', /kind/],
    ];
    for (const [kind, data, type, field, message] of cases) {
      const res = await put(s.session_token, kind, data, type);
      assert.equal(res.statusCode, 400, `${kind} ${type}: ${res.body}`);
      assert.equal(res.json().error.code, 'invalid_request');
      assert.equal(res.json().error.field, field, kind);
      assert.match(res.json().error.message, message);
    }
    const empty = await t.app.inject({
      method: 'PUT',
      url: '/capture/v1/media/selfie',
      headers: { authorization: `Bearer ${s.session_token}` },
    });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().error.field, 'file');
    const stored = await t.db.query('SELECT id FROM media WHERE session_id = $1', [s.id]);
    assert.equal(stored.length, 0, 'nothing refused is stored');
    const [row] = await t.db.query<{ capture_started_at: Date | null }>('SELECT capture_started_at FROM sessions WHERE id = $1', [s.id]);
    assert.equal(row!.capture_started_at, null, 'refused uploads do not start capture');
  });

  test('proof of address takes a PDF or a photo; a broken PDF is 400 on file', async () => {
    const owner = await t.tenant();
    const poa = {
      key: 'kyc_poa_only',
      name: 'poa',
      publish: true,
      definition: {
        checks: [{ type: 'proof_of_address' }],
        decision_rules: { decline: [], refer: [], decline_at_band: null, refer_at_band: null },
        risk_scoring: { signals: [], medium_from: 25, high_from: 70 },
        session_lifetime_seconds: 3600,
      },
    };
    assert.equal((await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: poa })).statusCode, 201);
    const s = await createSession(owner, { journey: 'kyc_poa_only' });
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Electricity bill, Jane Doe, 1 High Street');
    const pdf = Buffer.from(await doc.save());
    const ok = await put(s.session_token, 'proof_of_address', pdf, 'application/pdf');
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().content_type, 'application/pdf');
    assert.deepEqual(ok.json().quality, { acceptable: true, issues: [] });
    const broken = await put(s.session_token, 'proof_of_address', Buffer.from('%PDF-1.7\nthis is not really a pdf'), 'application/pdf');
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().error.field, 'file');
    const dark = await put(s.session_token, 'proof_of_address', await plain(800, 1100, '#101010'));
    assert.equal(dark.statusCode, 201);
    assert.deepEqual(
      dark.json().quality.issues.map((i: { code: string }) => i.code),
      ['too_dark'],
    );
    assert.equal((await submit(s.session_token)).statusCode, 202);
  });

  test('submit without the required captures is 400 naming the missing kind', async () => {
    const owner = await t.tenant();
    const s = await createSession(owner);
    const res = await submit(s.session_token);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.field, 'document_front');
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [s.id]);
    assert.equal(row!.status, 'awaiting_subject');
  });

  test(
    'selfie guidance: no face, too dark; a new upload replaces the previous one (bytes destroyed)',
    { skip: dataDir ? false : MISSING_DATA },
    async () => {
      const owner = await t.tenant();
      const s = await createSession(owner);
      const blank = await put(s.session_token, 'selfie', await plain(640, 480, '#c8beb4'));
      assert.equal(blank.statusCode, 201, blank.body);
      assert.equal(blank.json().quality.acceptable, false);
      assert.deepEqual(
        blank.json().quality.issues.map((i: { code: string }) => i.code),
        ['no_face'],
      );
      const dark = await put(s.session_token, 'selfie', await sharp(face('img2.jpg')).linear(0.12, 0).jpeg().toBuffer());
      assert.ok(
        dark.json().quality.issues.some((i: { code: string }) => i.code === 'too_dark'),
        dark.body,
      );
      const good = await put(s.session_token, 'selfie', face('img2.jpg'));
      assert.equal(good.statusCode, 201);
      assert.deepEqual(good.json().quality, { acceptable: true, issues: [] });
      const rows = await t.db.query<{ id: string; deleted_at: Date | null; sealed: boolean; quality: unknown }>(
        'SELECT id, deleted_at, data_sealed IS NOT NULL AS sealed, quality FROM media WHERE session_id = $1 ORDER BY id',
        [s.id],
      );
      assert.equal(rows.length, 3);
      assert.ok(
        rows.slice(0, 2).every((r) => r.deleted_at !== null && !r.sealed),
        'replaced uploads lose their bytes',
      );
      assert.equal(rows[2]!.id, good.json().media_id);
      assert.ok(rows[2]!.deleted_at === null && rows[2]!.sealed);
      const v = (await get(s.session_token)).json();
      assert.deepEqual(v.steps.find((x: { kind: string }) => x.kind === 'selfie').quality, { acceptable: true, issues: [] });
      // One capture_started transition however many uploads.
      const trail = await t.db.query<{ event: string }>('SELECT event FROM session_transitions WHERE session_id = $1 ORDER BY id', [s.id]);
      assert.deepEqual(
        trail.map((x) => x.event),
        ['token_issued', 'capture_started'],
      );
    },
  );

  describe('with a rendered specimen passport', { skip: noFont || (dataDir ? false : MISSING_DATA) }, () => {
    let passport: Buffer;
    before(async () => {
      passport = await renderDocument({ kind: 'td3', person: ANNA, portrait: face('img5.jpg') });
    });

    test('happy path: front and selfie stored sealed, submit → processing with the pipeline job, then 409', async () => {
      const owner = await t.tenant();
      const s = await createSession(owner);
      const front = await put(s.session_token, 'document_front', passport, 'application/octet-stream');
      assert.equal(front.statusCode, 201, front.body);
      const f = front.json();
      assert.equal(f.kind, 'document_front');
      assert.match(f.media_id, /^med_/);
      assert.equal(f.content_type, 'image/png', 'sniffed from the bytes, not the header');
      assert.equal(f.bytes, passport.length);
      assert.deepEqual(f.quality, { acceptable: true, issues: [] });
      assert.equal((await put(s.session_token, 'selfie', face('img2.jpg'))).statusCode, 201);

      const [m] = await t.db.query<{ data_sealed: Uint8Array; check_id: string | null; kind: string; sha256: string }>(
        'SELECT data_sealed, check_id, kind, sha256 FROM media WHERE id = $1',
        [f.media_id],
      );
      const sealed = Buffer.from(m!.data_sealed);
      assert.equal(m!.check_id, null);
      assert.equal(m!.kind, 'document_front');
      assert.equal(m!.sha256, f.sha256);
      assert.ok(!sealed.equals(passport) && sealed.indexOf(passport.subarray(0, 64)) === -1, 'stored encrypted, not as the plaintext');
      const [sess] = await t.db.query<{ capture_started_at: Date | null }>('SELECT capture_started_at FROM sessions WHERE id = $1', [s.id]);
      assert.ok(sess!.capture_started_at);

      const res = await submit(s.session_token);
      assert.equal(res.statusCode, 202, res.body);
      assert.deepEqual(res.json(), { id: s.id, status: 'processing' });
      const jobs = await t.db.query<{ payload: Record<string, unknown>; dedupe_key: string }>(
        "SELECT payload, dedupe_key FROM jobs WHERE queue = 'verifications.pipeline' AND dedupe_key = $1",
        [`pipeline:${s.id}`],
      );
      assert.equal(jobs.length, 1);
      assert.deepEqual(jobs[0]!.payload, { account_id: owner.accountId, environment: 'sandbox', session_id: s.id });
      const audit = await t.db.query<{ action: string; actor_type: string }>(
        'SELECT action, actor_type FROM audit_events WHERE resource_id = $1 ORDER BY id',
        [s.id],
      );
      assert.deepEqual(
        audit.map((a) => a.action),
        ['verification.created', 'verification.media_captured', 'verification.media_captured', 'verification.capture_submitted'],
      );
      assert.ok(audit.slice(1).every((a) => a.actor_type === 'session_token'));

      const again = await submit(s.session_token);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().error.code, 'conflict');
      assert.equal((await put(s.session_token, 'selfie', face('img2.jpg'))).statusCode, 409);
      const v = await get(s.session_token);
      assert.equal(v.statusCode, 200, 'the token still reads the session after submission');
      assert.equal(v.json().status, 'processing');
      assert.ok(v.json().checks.every((c: { status: string }) => c.status === 'processing'));
    });

    test('document guidance: a blurred passport is blurry; a passport in a journey for ID cards only is the wrong document', async () => {
      const owner = await t.tenant();
      const s = await createSession(owner);
      const blurred = await put(s.session_token, 'document_front', await sharp(passport).blur(6).png().toBuffer());
      assert.equal(blurred.statusCode, 201, blurred.body);
      // Blur is the cause the person can fix; the zone it made unreadable is not reported on top of it.
      assert.deepEqual(
        blurred.json().quality.issues.map((i: { code: string }) => i.code),
        ['blurry'],
      );
      assert.match(blurred.json().quality.issues[0].message, /blurry/);

      const cards = {
        key: 'kyc_cards',
        name: 'cards',
        publish: true,
        definition: {
          checks: [{ type: 'document', settings: { accepted_types: ['id_card'] } }],
          decision_rules: { decline: [], refer: [], decline_at_band: null, refer_at_band: null },
          risk_scoring: { signals: [], medium_from: 25, high_from: 70 },
          session_lifetime_seconds: 3600,
        },
      };
      assert.equal((await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: cards })).statusCode, 201);
      const c = await createSession(owner, { journey: 'kyc_cards' });
      const wrong = await put(c.session_token, 'document_front', passport);
      assert.deepEqual(
        wrong.json().quality.issues.map((i: { code: string }) => i.code),
        ['wrong_document'],
      );
      // A plain surface without a document or portrait: nothing that could be a document's front.
      const nothing = await put(c.session_token, 'document_front', await plain(1000, 650, '#dfe7ee'));
      assert.deepEqual(
        nothing.json().quality.issues.map((i: { code: string }) => i.code),
        ['no_document'],
      );
    });

    test("another session's token cannot touch this session", async () => {
      const owner = await t.tenant();
      const other = await t.tenant();
      const a = await createSession(owner);
      const b = await createSession(other);
      assert.equal((await put(b.session_token, 'selfie', face('img2.jpg'))).statusCode, 201);
      assert.equal((await get(b.session_token)).json().id, b.id);
      const aView = (await get(a.session_token)).json();
      assert.ok(aView.steps.every((x: { captured: boolean }) => !x.captured));
      const aRows = await t.db.query('SELECT id FROM media WHERE session_id = $1', [a.id]);
      assert.equal(aRows.length, 0);
      assert.equal((await submit(b.session_token)).json().error.field, 'document_front', 'b submits only b');
      const [row] = await t.db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [a.id]);
      assert.equal(row!.status, 'awaiting_subject');
    });
  });
});

test('OpenAPI: capture routes under their tag with the session-token scheme and the published issue codes', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const op = doc.paths['/capture/v1/session'].get;
  assert.deepEqual(op.tags, ['Capture (session token)']);
  assert.deepEqual(op.security, [{ sessionToken: [] }]);
  assert.equal(doc.components.securitySchemes.sessionToken.scheme, 'bearer');
  assert.ok(doc.components.securitySchemes.apiKey, 'the API-key scheme stays');
  assert.ok(doc.tags.some((x: { name: string }) => x.name === 'Capture (session token)'));
  const upload = doc.paths['/capture/v1/media/{kind}'].put;
  assert.ok(upload.requestBody.content['image/jpeg']);
  assert.deepEqual(
    upload.responses['201'].content['application/json'].schema.properties.quality.properties.issues.items.properties.code.enum,
    QUALITY_ISSUE_CODES,
  );
  assert.equal(doc.paths['/hosted/s/{id}'], undefined, 'the page is not an API operation');
});
