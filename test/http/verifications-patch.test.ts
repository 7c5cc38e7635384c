import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { Sealer } from '../../src/platform/crypto.js';
import { sessionFields } from '../../src/modules/verifications/fields.js';
import { emptyFields, type SubjectFields } from '../../src/modules/checks/kernel/subject-fields.js';
import { valueHash } from '../../src/modules/verifications/corrections/corrections.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const sealer = () => new Sealer(t.config.masterKey);
const extracted: SubjectFields = {
  ...emptyFields(),
  given_names: 'ERIKA',
  surname: 'MUSTERMAN',
  date_of_birth: '1983-08-12',
  sex: 'F',
  nationality: 'D',
  document_type: 'id_card',
  document_number: 'T22000129',
  issuing_country: 'D',
  expiry_date: '2031-08-01',
};

/** A session in the given sandbox outcome (sandbox_referred by default), with extracted fields written as the pipeline will. */
async function session(tt: TestApp, o: Tenant, reference = 'sandbox_referred', fields: SubjectFields | null = extracted): Promise<string> {
  const res = await tt.call('POST', '/v1/verifications', {
    key: o.sandboxKey,
    body: { journey: 'kyc_standard', subject: { type: 'individual', reference } },
  });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().id as string;
  if (fields)
    await tt.db.transaction((tx) => sessionFields.write(tx, { accountId: o.accountId, environment: 'sandbox' }, sealer(), id, fields));
  await new JobRunner({ db: tt.db, handlers: buildJobHandlers({ db: tt.db, config: tt.config, resources: tt.resources }) }).drain();
  return id;
}
const patch = (o: Tenant, id: string, body: unknown) => t.call('PATCH', `/v1/verifications/${id}`, { key: o.sandboxKey, body });
const get = async (o: Tenant, id: string) => (await t.call('GET', `/v1/verifications/${id}`, { key: o.sandboxKey })).json();
const caseOf = async (o: Tenant, id: string) =>
  (await t.call('GET', `/v1/cases?verification_id=${id}`, { key: o.sandboxKey })).json().data[0];

describe('PATCH /v1/verifications/{id}', () => {
  routeSecurityTests('correctVerificationFields', app, {
    method: 'PATCH',
    url: (id) => `/v1/verifications/${id}`,
    scope: 'verifications:write',
    body: { fields: { document_number: 'T22000130' }, reason: 'misread digit' },
    create: (tt, o) => session(tt, o),
    malformed: { body: { fields: { nmae: 'X' }, reason: 'typo' }, field: 'fields.nmae' },
  });

  test('corrects a field that screening does not read: fields, correction with values, audit with salted hashes only; stays referred', async () => {
    const o = await t.tenant();
    const id = await session(t, o);
    const before = await get(o, id);
    assert.equal(before.status, 'referred');
    assert.deepEqual(before.fields, extracted);
    assert.deepEqual(before.corrections, []);

    const res = await patch(o, id, { fields: { document_number: 'T22000130' }, reason: 'MRZ digit misread' });
    assert.equal(res.statusCode, 200, res.body);
    const v = res.json();
    assert.equal(v.status, 'referred');
    assert.equal(v.decision, 'referred');
    assert.equal(v.fields.document_number, 'T22000130');
    assert.equal(v.fields.surname, 'MUSTERMAN');
    assert.equal(v.corrections.length, 1);
    const c = v.corrections[0];
    assert.match(c.id, /^corr_/);
    assert.deepEqual(c.fields, ['document_number']);
    assert.deepEqual(c.changes, { document_number: { before: 'T22000129', after: 'T22000130' } });
    assert.equal(c.reason, 'MRZ digit misread');
    assert.match(c.actor, /^api_key:key_/);
    assert.equal(c.rescreening, null);
    assert.deepEqual(v.risk, before.risk);
    assert.deepEqual(await get(o, id), v);

    const [audit] = await t.db.query<{ metadata: Record<string, unknown>; raw: string }>(
      "SELECT metadata, metadata::text AS raw FROM audit_events WHERE resource_id = $1 AND action = 'verification.fields_corrected'",
      [id],
    );
    assert.ok(audit);
    assert.equal(audit.metadata.correction_id, c.id);
    assert.deepEqual(audit.metadata.fields, ['document_number']);
    assert.equal(audit.metadata.reason, 'MRZ digit misread');
    assert.ok(!audit.raw.includes('T22000129') && !audit.raw.includes('T22000130'), 'the audit row never holds the values');
    const hb = (audit.metadata.before_sha256 as Record<string, string>).document_number!;
    const ha = (audit.metadata.after_sha256 as Record<string, string>).document_number!;
    assert.match(hb, /^[0-9a-f]{64}$/);
    assert.notEqual(hb, ha);
    // The salt is sealed beside the values: with it, the hashes prove which values the correction held.
    const [row] = await t.db.query<{ changes_sealed: string }>('SELECT changes_sealed FROM session_corrections WHERE id = $1', [c.id]);
    assert.ok(!row!.changes_sealed.includes('T22000130'));
    const { salt } = JSON.parse(sealer().open('session-correction', row!.changes_sealed)) as { salt: string };
    assert.equal(valueHash(salt, 'T22000129'), hb);
    assert.equal(valueHash(salt, 'T22000130'), ha);

    // Setting the same values again records nothing.
    const same = await patch(o, id, { fields: { document_number: 'T22000130' }, reason: 'again' });
    assert.equal(same.statusCode, 200);
    assert.equal(same.json().corrections.length, 1);
  });

  test('correcting the name re-runs sanctions_pep with the corrected fields: check, risk, reasons and case follow; the session stays referred', async () => {
    const o = await t.tenant();
    const id = await session(t, o);
    const before = await get(o, id);
    assert.deepEqual(before.reason_codes, ['sanctions_pep_potential_match']);
    assert.equal((await caseOf(o, id)).severity, 'medium');

    const hit = await patch(o, id, {
      fields: { given_names: 'SANDBOX SANCTIONED', surname: 'PERSON', date_of_birth: '1970-01-01', sex: 'M' },
      reason: 'name and birth date were misread',
    });
    assert.equal(hit.statusCode, 200, hit.body);
    const v = hit.json();
    assert.equal(v.status, 'referred');
    assert.equal(v.decision, 'referred');
    const screening = v.checks.find((c: { type: string }) => c.type === 'sanctions_pep');
    assert.equal(screening.status, 'match');
    assert.ok(v.reason_codes.includes('sanctions_pep_match'));
    const r = v.corrections[0].rescreening;
    assert.deepEqual([r.before, r.after, r.recommendation], ['potential_match', 'match', 'declined']);
    assert.ok(r.score >= 0.9);
    assert.deepEqual(v.corrections[0].fields.sort(), ['date_of_birth', 'given_names', 'sex', 'surname']);
    const kase = await caseOf(o, id);
    assert.equal(kase.state, 'open');
    assert.equal(kase.severity, 'critical');
    assert.equal(kase.reason_code, v.reason_codes[0]);
    // The check's stored result is the re-run's, hits included.
    const check = (await t.call('GET', `/v1/checks/${screening.id}`, { key: o.sandboxKey })).json();
    assert.equal(check.status, 'match');
    assert.equal(check.result.hits[0].entity_id, 'sandbox:sanctioned-person');

    const clear = await patch(o, id, { fields: { given_names: 'ELEANOR', surname: 'QUIMBY' }, reason: 'wrong document page was read' });
    assert.equal(clear.statusCode, 200, clear.body);
    const w = clear.json();
    assert.equal(w.checks.find((c: { type: string }) => c.type === 'sanctions_pep').status, 'no_match');
    assert.deepEqual([w.status, w.reason_codes, w.risk.band], ['referred', [], 'low']);
    assert.equal(w.checks.find((c: { type: string }) => c.type === 'risk_score').status, 'passed');
    assert.deepEqual(
      w.corrections.map((c: { rescreening: { recommendation: string } }) => c.rescreening.recommendation),
      ['declined', 'approved'],
    );
    assert.equal((await caseOf(o, id)).severity, 'low');
    const caseEvents = await t.db.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY id', [
      (await caseOf(o, id)).id,
    ]);
    assert.deepEqual(
      caseEvents.map((e) => e.type),
      ['case.updated', 'case.updated'],
    );

    // The reviewer still decides, and the decision closes the case.
    const d = await t.call('POST', `/v1/verifications/${id}/decision`, {
      key: o.sandboxKey,
      body: { decision: 'approved', reason: 'not the listed person' },
    });
    assert.equal(d.statusCode, 200, d.body);
    assert.equal(d.json().status, 'approved');
    const closed = await caseOf(o, id);
    assert.deepEqual([closed.state, closed.resolution], ['closed', 'decision: approved']);
    assert.equal((await patch(o, id, { fields: { surname: 'QUIMBEY' }, reason: 'late' })).statusCode, 409);
  });

  test('a screening input change on a session without extracted fields needs a name; a field only change does not', async () => {
    const o = await t.tenant();
    const id = await session(t, o, 'sandbox_referred', null);
    assert.equal((await get(o, id)).fields, null);
    const noName = await patch(o, id, { fields: { date_of_birth: '1990-01-01' }, reason: 'declared' });
    assert.equal(noName.statusCode, 400);
    assert.equal(noName.json().error.field, 'fields.surname');
    const ok = await patch(o, id, { fields: { document_number: 'X1' }, reason: 'declared' });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json().fields, { ...emptyFields(), document_number: 'X1' });
  });

  test('bad bodies are 400 naming the field', async () => {
    const o = await t.tenant();
    const id = await session(t, o);
    const cases: [unknown, string][] = [
      [{ fields: {}, reason: 'r' }, 'fields'],
      [{ fields: { surname: 'X' } }, 'reason'],
      [{ fields: { surname: 'X' }, reason: '' }, 'reason'],
      [{ fields: { date_of_birth: '12.08.1983' }, reason: 'r' }, 'fields.date_of_birth'],
      [{ fields: { sex: 'male' }, reason: 'r' }, 'fields.sex'],
      [{ fields: { surname: 'X' }, reason: 'r', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(o, id, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().error.code, 'invalid_request');
      assert.equal(res.json().error.field, field, JSON.stringify(body));
    }
    assert.equal((await get(o, id)).corrections.length, 0);
  });

  test('only a referred session can be corrected: approved, processing and deleted sessions are 409', async () => {
    const o = await t.tenant();
    const body = { fields: { surname: 'X' }, reason: 'r' };
    for (const ref of ['sandbox_approved', 'sandbox_processing', 'sandbox_awaiting_subject']) {
      const id = await session(t, o, ref);
      const res = await patch(o, id, body);
      assert.equal(res.statusCode, 409, ref);
      assert.equal(res.json().error.code, 'conflict');
    }
    const id = await session(t, o);
    assert.equal((await patch(o, id, { fields: { document_number: 'T1' }, reason: 'misread' })).statusCode, 200);
    const del = await t.call('DELETE', `/v1/verifications/${id}`, { key: o.sandboxKey });
    assert.equal(del.statusCode, 200, del.body);
    assert.equal((await patch(o, id, body)).statusCode, 409);
    // The values went with the deletion; who, when, why and which fields remain.
    const after = await get(o, id);
    assert.equal(after.fields, null);
    assert.equal(after.corrections.length, 1);
    assert.equal(after.corrections[0].changes, null);
    assert.deepEqual(after.corrections[0].fields, ['document_number']);
    const [raw] = await t.db.query<{ f: string | null; c: string | null }>(
      'SELECT s.extracted_fields_sealed AS f, c.changes_sealed AS c FROM sessions s JOIN session_corrections c ON c.session_id = s.id WHERE s.id = $1',
      [id],
    );
    assert.deepEqual(raw, { f: null, c: null });
  });
});
