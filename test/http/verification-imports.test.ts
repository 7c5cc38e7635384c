import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { readZip } from '../../src/modules/verifications/evidence/evidence-zip.js';
import { verifyEvidenceBundle } from '../../src/modules/verifications/evidence/evidence.js';
import { openPdf } from '../../src/engines/text/pdf-text.js';
import { applySessionRetention } from '../../src/modules/verifications/retention.js';

// Referenced media come from a local server: this app allows loopback (as an operator would for a test network).
let t: TestApp;
let strict: TestApp;
let server: http.Server;
let base: string;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('selfie bytes '.repeat(40)), Buffer.from([0xff, 0xd9])]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let fetches = 0;

before(async () => {
  server = http.createServer((req, res) => {
    fetches++;
    if (req.url === '/selfie.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    if (req.url === '/redirect') return res.writeHead(302, { location: '/selfie.jpg' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { IMPORT_MEDIA_ALLOW_PRIVATE_NETWORKS: 'true' } });
  strict = await createTestApp({ config: { bodyLimitBytes: 1024 * 1024 } });
});
after(async () => {
  await t?.close();
  await strict?.close();
  await new Promise((r) => server.close(r));
});
const app = () => t;

const HOUR = 3_600_000;
const past = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR).toISOString();

function record(externalId: string, over: Record<string, unknown> = {}) {
  return {
    external_id: externalId,
    subject: { type: 'individual', reference: `cust_${externalId}`, country: 'DE' },
    journey: 'Standard KYC (v3)',
    status: 'approved',
    risk: { score: 12, band: 'low' },
    reason_codes: ['clear'],
    created_at: past(50),
    completed_at: past(49),
    checks: [{ type: 'document', status: 'passed', score: 0.98, reasons: ['mrz_valid'], result: { document_number: 'C01X00T47' } }],
    fields: { given_names: 'ERIKA', surname: 'MUSTERMANN', date_of_birth: '1964-08-12' },
    media: [{ kind: 'document_front', content_type: 'image/png', data: PNG.toString('base64') }],
    ...over,
  };
}

const post = (tt: TestApp, key: string, body: unknown, headers: Record<string, string> = {}) =>
  tt.call('POST', '/v1/verifications/imports', { key, body, headers });
const count = async (sql: string, params: unknown[]) => Number((await t.db.query<{ n: number }>(sql, params))[0]!.n);

async function importOne(owner: Tenant, rec: Record<string, unknown>) {
  const res = await post(t, owner.sandboxKey, { provider: 'onfido', records: [rec] });
  assert.equal(res.statusCode, 201, res.body);
  const r = res.json().records[0];
  assert.equal(r.status, 'imported', JSON.stringify(r));
  return r.verification_id as string;
}

describe('POST /v1/verifications/imports', () => {
  routeSecurityTests('importVerifications', app, {
    method: 'POST',
    url: () => '/v1/verifications/imports',
    scope: 'verifications:write',
    body: { provider: 'onfido', records: [record('sec-1')] },
    malformed: { body: { provider: 'Onfido Inc', records: [record('sec-2')] }, field: 'provider' },
  });

  test('imports records with embedded and referenced media as sessions of origin import, in their final status, with history timestamps', async () => {
    const owner = await t.tenant();
    const created = past(50);
    const completed = past(49);
    const body = {
      provider: 'onfido',
      records: [
        record('app-1', { created_at: created, completed_at: completed }),
        record('app-2', {
          status: 'declined',
          risk: { score: 88, band: 'high' },
          reason_codes: ['document_forged'],
          journey: undefined,
          fields: undefined,
          checks: [
            { type: 'document', status: 'failed' },
            { type: 'liveness', status: 'passed', score: 0.91 },
          ],
          media: [
            { kind: 'selfie', url: `${base}/selfie.jpg`, sha256: sha(JPEG) },
            { kind: 'document_front', data: `data:image/png;base64,${PNG.toString('base64')}` },
          ],
        }),
      ],
    };
    const res = await post(t, owner.sandboxKey, body);
    assert.equal(res.statusCode, 201, res.body);
    const out = res.json();
    assert.match(out.id, /^vimp_/);
    assert.equal(out.object, 'verification_import');
    assert.deepEqual([out.created, out.duplicates, out.failed], [2, 0, 0]);
    assert.deepEqual(
      out.records.map((r: { index: number; external_id: string; status: string; error: unknown }) => [
        r.index,
        r.external_id,
        r.status,
        r.error,
      ]),
      [
        [0, 'app-1', 'imported', null],
        [1, 'app-2', 'imported', null],
      ],
    );
    const [a, b] = out.records.map((r: { verification_id: string }) => r.verification_id);
    assert.match(a, /^ses_/);

    const s = (await t.call('GET', `/v1/verifications/${a}`, { key: owner.sandboxKey })).json();
    assert.equal(s.origin, 'import');
    assert.deepEqual(s.imported_from, { provider: 'onfido', external_id: 'app-1', journey: 'Standard KYC (v3)' });
    assert.equal(s.status, 'approved');
    assert.equal(s.decision, 'approved');
    assert.deepEqual(s.risk, { score: 12, band: 'low' });
    assert.deepEqual(s.reason_codes, ['clear']);
    assert.equal(s.journey, 'import:onfido');
    assert.equal(s.journey_version, 0);
    assert.equal(s.created_at, created);
    assert.equal(s.completed_at, completed);
    assert.deepEqual(s.subject, { type: 'individual', reference: 'cust_app-1', country: 'DE' });
    assert.deepEqual(
      s.checks.map((c: { type: string; status: string }) => [c.type, c.status]),
      [['document', 'passed']],
    );
    assert.equal(s.transitions.length, 1);
    assert.deepEqual(
      { ...s.transitions[0], at: undefined },
      { from: 'created', to: 'approved', event: 'imported', actor: s.transitions[0].actor, at: undefined },
    );
    assert.match(s.transitions[0].actor, /^api_key:/);
    assert.equal(s.transitions[0].at, completed);
    const decision = (await t.call('GET', `/v1/verifications/${a}/decision`, { key: owner.sandboxKey })).json();
    assert.equal(decision.decided_by, 'import:onfido');
    assert.equal(decision.decided_at, completed);

    // The check result is sealed and readable through the checks API; the session's fields too.
    const check = (await t.call('GET', `/v1/checks/${s.checks[0].id}`, { key: owner.sandboxKey })).json();
    assert.deepEqual(check.result, { document_number: 'C01X00T47' });
    assert.deepEqual(check.reasons, ['mrz_valid']);
    const [raw] = await t.db.query<{ result_sealed: string }>('SELECT result_sealed FROM checks WHERE id = $1', [s.checks[0].id]);
    assert.ok(!raw!.result_sealed.includes('C01X00T47'));

    const sb = (await t.call('GET', `/v1/verifications/${b}`, { key: owner.sandboxKey })).json();
    assert.equal(sb.status, 'declined');
    assert.equal(sb.imported_from.journey, null);
    const media = await t.db.query<{ kind: string; content_type: string; sha256: string; session_id: string }>(
      'SELECT kind, content_type, sha256, session_id FROM media WHERE session_id = $1 ORDER BY kind',
      [b],
    );
    assert.deepEqual(
      media.map((m) => [m.kind, m.content_type, m.sha256]),
      [
        ['document_front', 'image/png', sha(PNG)],
        ['selfie', 'image/jpeg', sha(JPEG)],
      ],
    );

    // One usage record, audit row and verification.imported event per session; no verification.completed.
    assert.equal(
      await count(
        "SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1 AND module = 'verifications' AND operation = 'import'",
        [owner.accountId],
      ),
      2,
    );
    assert.equal(
      await count("SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1 AND action = 'verification.imported'", [
        owner.accountId,
      ]),
      2,
    );
    assert.equal(
      await count(
        "SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1 AND action = 'verification_import.created' AND resource_id = $2",
        [owner.accountId, out.id],
      ),
      1,
    );
    const events = await t.db.query<{ type: string; data: { import_id: string; external_id: string; subject_reference: string } }>(
      'SELECT type, data FROM events WHERE account_id = $1 ORDER BY id',
      [owner.accountId],
    );
    assert.deepEqual(
      events.map((e) => [e.type, e.data.import_id, e.data.external_id]),
      [
        ['verification.imported', out.id, 'app-1'],
        ['verification.imported', out.id, 'app-2'],
      ],
    );

    // GET imports/{id} returns the stored summary; the static segment wins over /v1/verifications/{id}.
    const got = await t.call('GET', `/v1/verifications/imports/${out.id}`, { key: owner.sandboxKey });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), out);
  });

  test('a re-import reports duplicates with the existing sessions and writes, fetches and bills nothing', async () => {
    const owner = await t.tenant();
    const body = {
      provider: 'sumsub',
      records: [record('dup-1'), record('dup-2', { media: [{ kind: 'selfie', url: `${base}/selfie.jpg`, sha256: sha(JPEG) }] })],
    };
    const first = (await post(t, owner.sandboxKey, body)).json();
    assert.equal(first.created, 2);
    const fetchesBefore = fetches;
    const second = await post(t, owner.sandboxKey, body);
    assert.equal(second.statusCode, 201);
    const out = second.json();
    assert.notEqual(out.id, first.id);
    assert.deepEqual([out.created, out.duplicates, out.failed], [0, 2, 0]);
    assert.deepEqual(
      out.records.map((r: { status: string; verification_id: string }) => [r.status, r.verification_id]),
      first.records.map((r: { verification_id: string }) => ['duplicate', r.verification_id]),
    );
    assert.equal(fetches, fetchesBefore, 'a duplicate fetches nothing');
    assert.equal(await count('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [owner.accountId]), 2);
    assert.equal(
      await count("SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1 AND operation = 'import'", [owner.accountId]),
      2,
    );

    // The same external id under another provider, or in production, is another verification.
    const other = (await post(t, owner.sandboxKey, { provider: 'veriff', records: [record('dup-1')] })).json();
    assert.equal(other.created, 1);
    const prod = (await post(t, owner.productionKey, { provider: 'sumsub', records: [record('dup-1')] })).json();
    assert.equal(prod.created, 1);
  });

  test('concurrent imports of the same record make one session', async () => {
    const owner = await t.tenant();
    const body = { provider: 'onfido', records: [record('race-1', { media: [] })] };
    const outs = await Promise.all([1, 2, 3].map(() => post(t, owner.sandboxKey, body)));
    const statuses = outs.map((r) => r.json().records[0]);
    assert.equal(statuses.filter((r) => r.status === 'imported').length, 1);
    assert.equal(new Set(statuses.map((r) => r.verification_id)).size, 1);
    assert.equal(await count('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [owner.accountId]), 1);
  });

  test('Idempotency-Key: a replay returns the original response and creates, bills or stores nothing more', async () => {
    const owner = await t.tenant();
    const body = { provider: 'onfido', records: [record('idem-1'), record('idem-2')] };
    const headers = { 'idempotency-key': 'import-batch-1' };
    const first = await post(t, owner.sandboxKey, body, headers);
    assert.equal(first.statusCode, 201);
    const replay = await post(t, owner.sandboxKey, body, headers);
    assert.equal(replay.statusCode, 201);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.json(), first.json());
    assert.equal(await count('SELECT count(*)::int AS n FROM verification_imports WHERE account_id = $1', [owner.accountId]), 1);
    assert.equal(
      await count("SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1 AND operation = 'import'", [owner.accountId]),
      2,
    );
    const other = await post(t, owner.sandboxKey, { ...body, provider: 'sumsub' }, headers);
    assert.equal(other.statusCode, 400);
    assert.equal(other.json().error.field, 'Idempotency-Key');
  });

  test('each bad record is reported failed with the field at fault; the good ones are imported', async () => {
    const owner = await t.tenant();
    const { subject: _s, ...noSubject } = record('x');
    const records = [
      record('ok-1'),
      { ...record('bad-ref'), subject: { type: 'individual', reference: '' } },
      { ...noSubject, external_id: 'no-subject' },
      record('bad-status', { status: 'processing' }),
      record('bad-decision', { decision: 'declined' }),
      record('bad-order', { created_at: past(2), completed_at: past(3) }),
      record('future', { completed_at: new Date(Date.now() + HOUR).toISOString() }),
      record('expired-with-risk', { status: 'expired' }),
      record('bad-check', {
        checks: [
          { type: 'document', status: 'passed' },
          { type: 'palm_reading', status: 'passed' },
        ],
      }),
      record('pending-check', { checks: [{ type: 'document', status: 'pending' }] }),
      record('bad-base64', { media: [{ kind: 'selfie', data: 'not base64!' }] }),
      record('lying-type', { media: [{ kind: 'selfie', content_type: 'image/jpeg', data: PNG.toString('base64') }] }),
      record('bad-sha-shape', { media: [{ kind: 'selfie', url: `${base}/selfie.jpg`, sha256: 'abc' }] }),
      record('unknown-field', { colour: 'blue' }),
      record('bad-fields', { fields: { date_of_birth: 'yesterday' } }),
      record('no-risk', { risk: undefined }),
      record('ok-1'),
    ];
    const res = await post(t, owner.sandboxKey, { provider: 'onfido', records });
    assert.equal(res.statusCode, 201, res.body);
    const out = res.json();
    const fields = out.records.map((r: { status: string; error: { field: string; code: string } | null }) =>
      r.status === 'failed' ? r.error!.field : r.status,
    );
    assert.deepEqual(fields, [
      'imported',
      'records[1].subject.reference',
      'records[2].subject',
      'records[3].status',
      'records[4].decision',
      'records[5].completed_at',
      'records[6].completed_at',
      'records[7].risk',
      'records[8].checks[1].type',
      'records[9].checks[0].status',
      'records[10].media[0].data',
      'records[11].media[0].content_type',
      'records[12].media[0].sha256',
      'records[13].colour',
      'records[14].fields.date_of_birth',
      'records[15].risk',
      'records[16].external_id',
    ]);
    assert.equal(out.records[3].error.message, 'records[3].status must be one of approved, declined, referred, abandoned, expired.');
    assert.ok(
      out.records
        .slice(1)
        .every((r: { error: { code: string; message: string } }) => r.error.code === 'invalid_request' && r.error.message.length > 0),
    );
    assert.deepEqual([out.created, out.duplicates, out.failed], [1, 0, 16]);
    assert.equal(await count('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [owner.accountId]), 1);
    assert.equal(
      await count("SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1 AND operation = 'import'", [owner.accountId]),
      1,
    );
  });

  test('the route takes bodies above the service-wide body limit (embedded media are base64 in the JSON); other routes keep it', async () => {
    // The strict app runs with a 1 MiB service-wide limit; the import route keeps its own 50 MiB.
    const owner = await strict.tenant();
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024, 7)]);
    const body = {
      provider: 'onfido',
      records: [1, 2].map((i) => record(`big-${i}`, { media: [{ kind: 'document_front', data: big.toString('base64') }] })),
    };
    assert.ok(JSON.stringify(body).length > strict.config.bodyLimitBytes);
    const res = await post(strict, owner.sandboxKey, body);
    assert.equal(res.statusCode, 201, res.body.slice(0, 500));
    assert.equal(res.json().created, 2);
    const [m] = await strict.db.query<{ bytes: number; content_type: string }>(
      "SELECT bytes, content_type FROM media WHERE account_id = $1 AND kind = 'document_front' LIMIT 1",
      [owner.accountId],
    );
    assert.deepEqual(m, { bytes: big.length, content_type: 'image/png' });
    const other = await strict.call('POST', '/v1/verifications', {
      key: owner.sandboxKey,
      body: {
        journey: 'kyc_standard',
        subject: { type: 'individual', reference: 'x'.repeat(10) },
        redirect_url: `https://example.org/${'a'.repeat(1024 * 1024)}`,
      },
    });
    assert.equal(other.statusCode, 400);
    assert.equal(other.json().error.field, 'body');
  });

  test('a body that is malformed as a whole is 400 with field', async () => {
    const owner = await t.tenant();
    const cases: [unknown, string][] = [
      [{ provider: 'onfido', records: [] }, 'records'],
      [{ provider: 'onfido', records: Array.from({ length: 101 }, (_, i) => record(`many-${i}`, { media: [] })) }, 'records'],
      [{ provider: 'onfido' }, 'records'],
      [{ provider: 'onfido', records: ['not an object'] }, 'records[0]'],
      [{ provider: 'onfido', records: [record('x')], extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await post(t, owner.sandboxKey, body);
      assert.equal(res.statusCode, 400, field);
      assert.equal(res.json().error.field, field);
    }
    assert.equal(await count('SELECT count(*)::int AS n FROM verification_imports WHERE account_id = $1', [owner.accountId]), 0);
  });

  test('a record failing inside its transaction leaves nothing behind; the records around it are imported', async () => {
    const owner = await t.tenant();
    // The database refuses one medium after the session, transition, checks and fields of the record were written.
    await t.db.query(`CREATE OR REPLACE FUNCTION refuse_test_medium() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.kind = 'refused_by_test' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await t.db.query('CREATE TRIGGER refuse_test_medium BEFORE INSERT ON media FOR EACH ROW EXECUTE FUNCTION refuse_test_medium()');
    try {
      const records = [
        record('half-1'),
        record('half-2', {
          status: 'referred',
          media: [
            { kind: 'selfie', data: JPEG.toString('base64') },
            { kind: 'refused_by_test', data: PNG.toString('base64') },
          ],
        }),
        record('half-3'),
      ];
      const out = (await post(t, owner.sandboxKey, { provider: 'onfido', records })).json();
      assert.deepEqual(
        out.records.map((r: { status: string }) => r.status),
        ['imported', 'failed', 'imported'],
      );
      assert.equal(out.records[1].error.code, 'internal_error');
      assert.equal(out.records[1].verification_id, null);
      const q = async (sql: string) => count(sql, [owner.accountId]);
      assert.equal(await q("SELECT count(*)::int AS n FROM sessions WHERE account_id = $1 AND import_external_id = 'half-2'"), 0);
      assert.equal(await q('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1'), 2);
      assert.equal(await q('SELECT count(*)::int AS n FROM session_transitions WHERE account_id = $1'), 2);
      assert.equal(await q('SELECT count(*)::int AS n FROM checks WHERE account_id = $1'), 2);
      assert.equal(await q('SELECT count(*)::int AS n FROM media WHERE account_id = $1'), 2);
      assert.equal(await q('SELECT count(*)::int AS n FROM cases WHERE account_id = $1'), 0);
      assert.equal(await q("SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1 AND operation = 'import'"), 2);
      assert.equal(
        await q("SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1 AND action IN ('verification.imported', 'case.opened')"),
        2,
      );
      assert.equal(await q("SELECT count(*)::int AS n FROM events WHERE account_id = $1 AND data->>'external_id' = 'half-2'"), 0);
    } finally {
      await t.db.query('DROP TRIGGER refuse_test_medium ON media');
    }
    // The failed record can simply be sent again.
    const again = (await post(t, owner.sandboxKey, { provider: 'onfido', records: [record('half-2', { media: [] })] })).json();
    assert.equal(again.records[0].status, 'imported');
  });

  test('referenced media: the sha256 must match, redirects are not followed, and nothing of a failed record is kept', async () => {
    const owner = await t.tenant();
    const records = [
      record('sha-1', { media: [{ kind: 'selfie', url: `${base}/selfie.jpg`, sha256: sha(PNG) }] }),
      record('sha-2', { media: [{ kind: 'selfie', url: `${base}/redirect`, sha256: sha(JPEG) }] }),
      record('sha-3', { media: [{ kind: 'selfie', url: `${base}/missing.jpg`, sha256: sha(JPEG) }] }),
      record('sha-4', { media: [{ kind: 'selfie', url: 'ftp://example.org/a.jpg', sha256: sha(JPEG) }] }),
    ];
    const out = (await post(t, owner.sandboxKey, { provider: 'onfido', records })).json();
    assert.deepEqual(
      out.records.map((r: { error: { field: string } }) => r.error.field),
      ['records[0].media[0].sha256', 'records[1].media[0].url', 'records[2].media[0].url', 'records[3].media[0].url'],
    );
    assert.match(out.records[0].error.message, /does not match/);
    assert.match(out.records[1].error.message, /redirect/);
    assert.match(out.records[2].error.message, /404/);
    assert.equal(await count('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [owner.accountId]), 0);
    assert.equal(await count('SELECT count(*)::int AS n FROM media WHERE account_id = $1', [owner.accountId]), 0);
  });

  test('by default loopback, private and link-local addresses and plain http are refused', async () => {
    const owner = await strict.tenant();
    const port = (server.address() as AddressInfo).port;
    const fetchesBefore = fetches;
    const records = [
      record('net-1', { media: [{ kind: 'selfie', url: `${base}/selfie.jpg`, sha256: sha(JPEG) }] }),
      record('net-2', { media: [{ kind: 'selfie', url: `https://127.0.0.1:${port}/selfie.jpg`, sha256: sha(JPEG) }] }),
      record('net-3', { media: [{ kind: 'selfie', url: 'https://169.254.169.254/latest/meta-data', sha256: sha(JPEG) }] }),
      record('net-4', { media: [{ kind: 'selfie', url: `https://localhost:${port}/selfie.jpg`, sha256: sha(JPEG) }] }),
      record('net-5', { media: [{ kind: 'selfie', url: 'https://[::1]/x', sha256: sha(JPEG) }] }),
    ];
    const res = await post(strict, owner.sandboxKey, { provider: 'onfido', records });
    assert.equal(res.statusCode, 201);
    const out = res.json();
    assert.deepEqual(
      out.records.map((r: { status: string; error: { field: string } }) => [r.status, r.error.field]),
      records.map((_, i) => ['failed', `records[${i}].media[0].url`]),
    );
    assert.match(out.records[0].error.message, /https/);
    for (const r of out.records.slice(1)) assert.match(r.error.message, /loopback, private or link-local|link-local, metadata/);
    assert.equal(fetches, fetchesBefore, 'no request reached the server');
  });
});

describe('imported sessions elsewhere in the API', () => {
  routeSecurityTests('getVerificationImport', app, {
    method: 'GET',
    url: (id) => `/v1/verifications/imports/${id}`,
    scope: 'verifications:read',
    create: async (tt, o) => (await post(tt, o.sandboxKey, { provider: 'onfido', records: [record('sec-get')] })).json().id,
  });

  test('unknown import id is 404; /v1/verifications/{id} and POST /v1/verifications still route as before', async () => {
    const owner = await t.tenant();
    const res = await t.call('GET', '/v1/verifications/imports/vimp_0000000000000000000000000a', { key: owner.sandboxKey });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.field, 'id');
    assert.match(res.json().error.message, /verification import/);
    const native = await t.call('POST', '/v1/verifications', {
      key: owner.sandboxKey,
      body: { journey: 'kyc_standard', subject: { type: 'individual', reference: 'native-1' } },
    });
    assert.equal(native.statusCode, 201);
    const got = (await t.call('GET', `/v1/verifications/${native.json().id}`, { key: owner.sandboxKey })).json();
    assert.equal(got.origin, 'native');
    assert.equal(got.imported_from, null);
  });

  test('the origin filter lists imported or native sessions only', async () => {
    const owner = await t.tenant();
    const imported = await importOne(owner, record('list-1'));
    const native = (
      await t.call('POST', '/v1/verifications', {
        key: owner.sandboxKey,
        body: { journey: 'kyc_standard', subject: { type: 'individual', reference: 'native-2' } },
      })
    ).json().id;
    const ids = async (q: string) =>
      (await t.call('GET', `/v1/verifications${q}`, { key: owner.sandboxKey })).json().data.map((s: { id: string }) => s.id);
    assert.deepEqual(await ids('?origin=import'), [imported]);
    assert.deepEqual(await ids('?origin=native'), [native]);
    assert.deepEqual(new Set(await ids('')), new Set([imported, native]));
    assert.deepEqual(await ids('?origin=import&status=approved'), [imported]);
    const bad = await t.call('GET', '/v1/verifications?origin=foreign', { key: owner.sandboxKey });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.field, 'origin');
  });

  test('evidence bundle and PDF report of an imported session', async () => {
    const owner = await t.tenant();
    const id = await importOne(
      owner,
      record('ev-1', {
        media: [
          { kind: 'document_front', data: PNG.toString('base64') },
          { kind: 'selfie', url: `${base}/selfie.jpg`, sha256: sha(JPEG) },
        ],
      }),
    );
    const res = await t.call('GET', `/v1/verifications/${id}/evidence`, { key: owner.sandboxKey });
    assert.equal(res.statusCode, 200);
    assert.equal(verifyEvidenceBundle(res.rawPayload).ok, true);
    const files = new Map(readZip(res.rawPayload).map((e) => [e.path, e.data]));
    const session = JSON.parse(files.get('session.json')!.toString());
    assert.equal(session.origin, 'import');
    assert.deepEqual(session.imported_from, { provider: 'onfido', external_id: 'ev-1', journey: 'Standard KYC (v3)' });
    assert.equal(session.transitions[0].event, 'imported');
    assert.ok(files.has('decision.json'));
    const media = [...files.entries()]
      .filter(([p]) => p.startsWith('media/'))
      .map(([, d]) => sha(d))
      .sort();
    assert.deepEqual(media, [sha(PNG), sha(JPEG)].sort());

    const report = await t.call('GET', `/v1/verifications/${id}/report`, { key: owner.sandboxKey });
    assert.equal(report.statusCode, 200);
    const doc = await openPdf(report.rawPayload);
    let text = '';
    for (let i = 1; i <= doc.numPages; i++)
      text += (await (await doc.getPage(i)).getTextContent()).items.map((x) => ('str' in x ? x.str : '')).join(' ') + '\n';
    await doc.destroy();
    for (const needle of ['Imported from onfido (ev-1)', 'import:onfido (version 0)', 'created -> approved', 'imported'])
      assert.ok(text.includes(needle), `report lacks ${needle}`);
  });

  test('DELETE treats an imported session like any other; a re-import of it stays a duplicate (no resurrection)', async () => {
    const owner = await t.tenant();
    const id = await importOne(owner, record('del-1', { media: [{ kind: 'document_front', data: PNG.toString('base64') }] }));
    const del = await t.call('DELETE', `/v1/verifications/${id}`, { key: owner.sandboxKey });
    assert.equal(del.statusCode, 200, del.body);
    assert.equal(del.json().media_deleted, 1);
    assert.equal(del.json().checks_redacted, 1);
    const got = (await t.call('GET', `/v1/verifications/${id}`, { key: owner.sandboxKey })).json();
    assert.equal(got.subject.reference, null);
    assert.equal(got.origin, 'import');
    assert.equal((await t.call('GET', `/v1/verifications/${id}/evidence`, { key: owner.sandboxKey })).statusCode, 409);
    const again = (await post(t, owner.sandboxKey, { provider: 'onfido', records: [record('del-1')] })).json();
    assert.deepEqual([again.records[0].status, again.records[0].verification_id], ['duplicate', id]);
  });

  test('retention counts from the original created_at: an import older than the retention period is erased by the next run', async () => {
    const owner = await t.tenant();
    await t.db.query('UPDATE accounts SET retention_days = 30 WHERE id = $1', [owner.accountId]);
    const old = await importOne(owner, record('ret-old', { created_at: past(24 * 40), completed_at: past(24 * 40 - 1) }));
    const recent = await importOne(owner, record('ret-new', { created_at: past(24 * 10), completed_at: past(24 * 10 - 1) }));
    await applySessionRetention(t.db);
    const deleted = async (id: string) =>
      (await t.call('GET', `/v1/verifications/${id}`, { key: owner.sandboxKey })).json().deleted_at !== null;
    assert.equal(await deleted(old), true);
    assert.equal(await deleted(recent), false);
    assert.equal(
      await count(
        "SELECT count(*)::int AS n FROM audit_events WHERE account_id = $1 AND action = 'verification.deleted' AND metadata->>'reason' = 'retention'",
        [owner.accountId],
      ),
      1,
    );
  });

  test('an imported referred session waits in the review queue as a case; a reviewer decides it here, or DELETE closes its case', async () => {
    const owner = await t.tenant();
    const id = await importOne(owner, record('ref-1', { status: 'referred', reason_codes: [], risk: { score: 55, band: 'medium' } }));
    const s = (await t.call('GET', `/v1/verifications/${id}`, { key: owner.sandboxKey })).json();
    assert.deepEqual([s.status, s.decision, s.completed_at], ['referred', 'referred', null]);
    const [c] = await t.db.query<{ reason_code: string; state: string }>('SELECT reason_code, state FROM cases WHERE session_id = $1', [
      id,
    ]);
    assert.deepEqual(c, { reason_code: 'imported_referral', state: 'open' });
    const decided = await t.call('POST', `/v1/verifications/${id}/decision`, {
      key: owner.sandboxKey,
      body: { decision: 'approved', reason: 'Documents re-checked after the migration.' },
    });
    assert.equal(decided.statusCode, 200, decided.body);
    assert.equal(decided.json().status, 'approved');

    const other = await importOne(owner, record('ref-2', { status: 'referred', reason_codes: ['document_needs_review'] }));
    assert.equal((await t.call('DELETE', `/v1/verifications/${other}`, { key: owner.sandboxKey })).statusCode, 200);
    const [closed] = await t.db.query<{ reason_code: string; state: string }>(
      'SELECT reason_code, state FROM cases WHERE session_id = $1',
      [other],
    );
    assert.deepEqual(closed, { reason_code: 'document_needs_review', state: 'closed' });
  });
});
