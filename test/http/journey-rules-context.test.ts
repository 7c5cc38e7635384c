import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
import { DEFAULT_JOURNEYS } from '../../src/modules/journeys/defaults.js';
import { ageAt } from '../../src/engines/rules/index.js';

/**
 * Journey rules over the session's context (issue #13 item 4), end to end: a journey saved through the
 * API with CEL rules over declared data, check results, document fields and the capture; a session
 * created, captured and run by the pipeline job; the decision and its trail read back through the API.
 */
let t: TestApp;
let sealer: Sealer;
before(async () => {
  t = await createTestApp();
  sealer = new Sealer(t.config.masterKey);
});
after(() => t.close());

const screeningOnly = structuredClone(DEFAULT_JOURNEYS[1]!.definition);
const journeyBody = (key: string, definition: unknown) => ({ key, name: key, definition, publish: true });
type Rule = { key: string; expression: string; outcome: 'refer' | 'decline' };

async function saveJourney(o: Tenant, key: string, definition: object, rules: Rule[]) {
  const res = await t.call('POST', '/v1/journeys', { key: o.sandboxKey, body: journeyBody(key, { ...definition, rules }) });
  assert.equal(res.statusCode, 201, res.body);
}

/** Session created through the API, media stored as the capture API stores them, submit, the pipeline job. */
async function run(o: Tenant, body: Record<string, unknown>, media: { kind: string; data: Buffer; contentType: string }[] = []) {
  const created = await t.call('POST', '/v1/verifications', { key: o.sandboxKey, body });
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().id as string;
  const ctx = o.ctx('sandbox');
  for (const m of media) await checks.insertMedia(t.db, ctx, sealer, { sessionId: id }, m);
  if (media.length) await startCapture(t.db, ctx, id);
  await submitCapture(t.db, ctx, id);
  await enqueueJob(
    t.db,
    PIPELINE_QUEUE,
    { account_id: o.accountId, environment: 'sandbox', session_id: id },
    { dedupeKey: `pipeline:${id}` },
  );
  await new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources, sealer }) }).drain();
  const decision = await t.call('GET', `/v1/verifications/${id}/decision`, { key: o.sandboxKey });
  assert.equal(decision.statusCode, 200, decision.body);
  return { id, decision: decision.json() };
}

type Trail = { key: string; outcome: string; result: string; values_used: Record<string, unknown>; error?: { code: string } };
const byKey = (d: { journey_rules: Trail[] }) => Object.fromEntries(d.journey_rules.map((r) => [r.key, r]));

describe('journey rules: the typed session context is checked when the journey is saved', () => {
  test('an unknown or mistyped field is 400 at definition.rules[i].expression with its position; nothing is stored', async () => {
    const o = await t.tenant();
    const cases: [string, RegExp][] = [
      ['document.agee >= 18', /line 1, column \d+/],
      ['results.sanctions_pep.scor > 0.5', /line 1, column \d+/],
      ['declared.age == "18"', /line 1, column \d+/],
      ['document.birth_date == "1990-01-01"', /line 1, column \d+/],
    ];
    for (const [expression, message] of cases) {
      const rules = [
        { key: 'fine', expression: 'document.read && document.age_known && document.age < 18', outcome: 'decline' },
        { key: 'bad', expression, outcome: 'refer' },
      ];
      const res = await t.call('POST', '/v1/journeys', { key: o.sandboxKey, body: journeyBody('ruled', { ...screeningOnly, rules }) });
      assert.equal(res.statusCode, 400, expression);
      assert.equal(res.json().error.field, 'definition.rules[1].expression', expression);
      assert.match(res.json().error.message, message, expression);
    }
    const list = (await t.call('GET', '/v1/journeys?key=ruled', { key: o.sandboxKey })).json();
    assert.equal(list.data.length, 0);
  });
});

describe('journey rules: evaluated at the decision over the session the pipeline ran', () => {
  test('declared data and check results: a declared minor is declined, the trail names each rule and the values it used', async () => {
    const o = await t.tenant();
    await saveJourney(o, 'screen_adults', screeningOnly, [
      { key: 'minor', expression: 'declared.birth_date_given && declared.age < 18', outcome: 'decline' },
      {
        key: 'screened_hit',
        expression: 'results.sanctions_pep.status == "match" || "check_error" in results.sanctions_pep.reasons',
        outcome: 'refer',
      },
      { key: 'no_document', expression: 'document.read', outcome: 'refer' },
      { key: 'from_kp', expression: 'capture.ip_country == "KP"', outcome: 'decline' },
    ]);
    const birth = new Date(Date.now() - 10 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    const subject = { type: 'individual', given_names: 'Maria', surname: 'Lindqvist' };
    const minor = await run(o, { journey: 'screen_adults', subject: { ...subject, reference: 'cus_minor', date_of_birth: birth } });
    assert.equal(minor.decision.decision, 'declined', JSON.stringify(minor.decision));
    assert.deepEqual(minor.decision.reason_codes, ['journey_rule_minor']);
    const trail = byKey(minor.decision);
    assert.deepEqual(Object.keys(trail), ['minor', 'screened_hit', 'no_document', 'from_kp']);
    assert.deepEqual(trail.minor, {
      key: 'minor',
      outcome: 'decline',
      result: 'match',
      values_used: { 'declared.birth_date_given': true, 'declared.age': ageAt(birth, Date.now()) },
    });
    assert.ok((trail.minor!.values_used['declared.age'] as number) < 18);
    assert.equal(trail.screened_hit!.result, 'no_match');
    assert.deepEqual(trail.screened_hit!.values_used, { 'results.sanctions_pep.status': 'no_match', 'results.sanctions_pep.reasons': [] });
    assert.deepEqual(trail.no_document!.values_used, { 'document.read': false });
    assert.deepEqual([trail.from_kp!.result, trail.from_kp!.values_used], ['no_match', { 'capture.ip_country': '' }]);

    // The audit row names each rule and its result; the values stay with the session.
    const [audit] = await t.db.query<{ metadata: { journey_rules: unknown } }>(
      "SELECT metadata FROM audit_events WHERE resource_id = $1 AND action = 'verification.declined'",
      [minor.id],
    );
    assert.deepEqual(audit!.metadata.journey_rules, [
      { key: 'minor', result: 'match' },
      { key: 'screened_hit', result: 'no_match' },
      { key: 'no_document', result: 'no_match' },
      { key: 'from_kp', result: 'no_match' },
    ]);

    // An adult (and a subject who declared no birth date) passes the same rules.
    const adult = await run(o, { journey: 'screen_adults', subject: { ...subject, reference: 'cus_adult', date_of_birth: '1980-02-29' } });
    assert.equal(adult.decision.decision, 'approved', JSON.stringify(adult.decision));
    assert.equal(byKey(adult.decision).minor!.values_used['declared.age'], ageAt('1980-02-29', Date.now()));
    const undeclared = await run(o, { journey: 'screen_adults', subject: { ...subject, reference: 'cus_nodob' } });
    assert.equal(undeclared.decision.decision, 'approved');
    // Every path the rule reads is reported, with the value it had (age 0: unknown, as birth_date_given says).
    assert.deepEqual(byKey(undeclared.decision).minor!.values_used, { 'declared.birth_date_given': false, 'declared.age': 0 });

    // Deleting the session erases the trail with the rest of its personal data.
    assert.equal((await t.call('DELETE', `/v1/verifications/${minor.id}`, { key: o.sandboxKey })).statusCode, 200);
    const [row] = await t.db.query<{ rule_trail: unknown }>('SELECT rule_trail FROM sessions WHERE id = $1', [minor.id]);
    assert.equal(row!.rule_trail, null);
  });

  test('a journey without rules has an empty trail', async () => {
    const o = await t.tenant();
    const s = await run(o, {
      journey: 'kyc_screening_only',
      subject: { type: 'individual', reference: 'c1', given_names: 'Maria', surname: 'Lindqvist' },
    });
    assert.equal(s.decision.decision, 'approved');
    assert.deepEqual(s.decision.journey_rules, []);
  });

  const dataDir = sharedDataDir();
  const noFont = ocrBAvailable() ? false : 'OCR-B font (Debian fonts-ocr-b) not installed; specimen documents cannot be rendered';
  test(
    "document fields: the passport's nationality, age and expiry as read by the document check; declared vs read age",
    { skip: noFont || (dataDir ? false : MISSING_DATA) },
    async () => {
      const o = await t.tenant();
      const documentOnly = {
        checks: [{ type: 'document' }],
        decision_rules: { decline: [], refer: [], decline_at_band: null, refer_at_band: null },
        risk_scoring: { signals: [], medium_from: 50, high_from: 80 },
        session_lifetime_seconds: 3600,
      };
      await saveJourney(o, 'doc_rules', documentOnly, [
        { key: 'senior_uto', expression: 'document.read && document.nationality == "UTO" && document.age >= 50', outcome: 'refer' },
        {
          key: 'age_mismatch',
          expression: 'declared.birth_date_given && document.age_known && declared.age != document.age',
          outcome: 'decline',
        },
        { key: 'expired', expression: 'document.expired || document.days_to_expiry < 30', outcome: 'decline' },
        { key: 'foreign_issuer', expression: 'document.issuing_country != "UTO" || document.type == ""', outcome: 'decline' },
      ]);
      const passport = await renderDocument({
        kind: 'td3',
        person: ANNA,
        portrait: readFileSync(`${dataDir}/faces/deepface_subset/images/img5.jpg`),
      });
      const s = await run(
        o,
        { journey: 'doc_rules', subject: { type: 'individual', reference: 'cus_anna', date_of_birth: '1990-01-01' } },
        [{ kind: 'document_front', data: passport, contentType: 'image/png' }],
      );
      const trail = byKey(s.decision);
      assert.equal(s.decision.decision, 'declined', JSON.stringify(s.decision));
      assert.deepEqual(s.decision.reason_codes, ['journey_rule_age_mismatch', 'journey_rule_senior_uto']);
      const age = ageAt(ANNA.birthDate, Date.now())!;
      assert.deepEqual(trail.senior_uto!.values_used, { 'document.read': true, 'document.nationality': 'UTO', 'document.age': age });
      assert.deepEqual(trail.age_mismatch!.values_used, {
        'declared.birth_date_given': true,
        'document.age_known': true,
        'declared.age': ageAt('1990-01-01', Date.now()),
        'document.age': age,
      });
      assert.equal(trail.expired!.result, 'no_match');
      assert.equal(trail.expired!.values_used['document.expired'], false);
      assert.ok((trail.expired!.values_used['document.days_to_expiry'] as number) > 30);
      assert.equal(trail.foreign_issuer!.result, 'no_match');
      assert.notEqual(trail.foreign_issuer!.values_used['document.type'], '');
    },
  );
});
