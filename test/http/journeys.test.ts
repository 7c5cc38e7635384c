import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { DEFAULT_JOURNEYS } from '../../src/modules/journeys/defaults.js';
import { completeSessionChecks } from '../../src/modules/verifications/complete.js';

let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());
const app = () => t;

const definition = structuredClone(DEFAULT_JOURNEYS[1]!.definition);
const body = { key: 'screen_light', name: 'Light screening', definition, publish: true };

describe('POST /v1/journeys', () => {
  routeSecurityTests('createJourney', app, {
    method: 'POST',
    url: () => '/v1/journeys',
    scope: 'journeys:write',
    body,
    malformed: { body: { ...body, definition: { ...definition, checks: [{ type: 'face_search' }] } }, field: 'definition.checks[0].type' },
  });

  test('versions a key: draft, then published; the audit row names the version', async () => {
    const owner = await t.tenant();
    const draft = await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, publish: false } });
    assert.equal(draft.statusCode, 201);
    assert.equal(draft.json().latest_version, 1);
    assert.equal(draft.json().published_version, null);
    assert.equal(draft.json().versions[0].status, 'draft');
    const pub = await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, name: 'Light screening v2' } });
    assert.equal(pub.statusCode, 201);
    const j = pub.json();
    assert.equal(j.id, draft.json().id);
    assert.equal(j.latest_version, 2);
    assert.equal(j.published_version, 2);
    assert.deepEqual(
      j.versions.map((v: { version: number; status: string }) => `${v.version}:${v.status}`),
      ['2:published', '1:draft'],
    );
    // Settings defaults are filled in, so a session sees the thresholds it runs with.
    assert.equal(j.versions[0].definition.checks[0].settings.threshold, 0.8);
    const audit = await t.db.query<{ action: string; metadata: { version: number } }>(
      'SELECT action, metadata FROM audit_events WHERE resource_id = $1 ORDER BY id',
      [j.id],
    );
    assert.deepEqual(
      audit.map((a) => `${a.action}@${a.metadata.version}`),
      ['journey.drafted@1', 'journey.published@2'],
    );
  });

  test('a version is per environment: publishing in the sandbox leaves production untouched', async () => {
    const owner = await t.tenant();
    await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body });
    const prod = (await t.call('GET', '/v1/journeys?key=screen_light', { key: owner.productionKey })).json();
    assert.equal(prod.data.length, 0);
  });

  test('bad definitions are 400 naming the field', async () => {
    const owner = await t.tenant();
    const cases: [unknown, string][] = [
      [{ ...definition, checks: [...definition.checks, { type: 'sanctions_pep' }] }, 'definition.checks[2].type'],
      [
        { ...definition, checks: [{ type: 'sanctions_pep', settings: { datasets: ['gossip'] } }, { type: 'risk_score' }] },
        'definition.checks[0].settings.datasets[0]',
      ],
      [
        { ...definition, decision_rules: { ...definition.decision_rules, refer: [{ check: 'liveness', statuses: ['failed'] }] } },
        'definition.decision_rules.refer[0].check',
      ],
      [{ ...definition, risk_scoring: { ...definition.risk_scoring, medium_from: 80 } }, 'definition.risk_scoring.high_from'],
      [{ ...definition, session_lifetime_seconds: 10 }, 'definition.session_lifetime_seconds'],
    ];
    for (const [d, field] of cases) {
      const res = await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, definition: d } });
      assert.equal(res.statusCode, 400, field);
      assert.equal(res.json().error.field, field);
    }
    const bad = await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, key: 'Bad Key' } });
    assert.equal(bad.json().error.field, 'key');
  });
});

describe('journey rules (CEL)', () => {
  test('a bad expression is 400 naming definition.rules[i].expression with the position; nothing is stored', async () => {
    const owner = await t.tenant();
    const rules = [
      { key: 'fine', expression: 'risk.score >= 0', outcome: 'refer' },
      { key: 'broken', expression: 'subject.country == ', outcome: 'decline' },
    ];
    const res = await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, definition: { ...definition, rules } } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.field, 'definition.rules[1].expression');
    assert.match(res.json().error.message, /line 1, column \d+/);
    const unknownOutcome = { ...definition, rules: [{ key: 'x', expression: 'true', outcome: 'approve' }] };
    const bad = await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, definition: unknownOutcome } });
    assert.equal(bad.json().error.field, 'definition.rules[0].outcome');
    const list = (await t.call('GET', '/v1/journeys?key=screen_light', { key: owner.sandboxKey })).json();
    assert.equal(list.data.length, 0);
  });

  test("the session's decision runs the pinned version's rules over its checks and subject", async () => {
    const owner = await t.tenant();
    const rules = [
      { key: 'high_risk_country', expression: 'subject.country == "KP" && checks.sanctions_pep == "no_match"', outcome: 'decline' },
    ];
    const saved = await t.call('POST', '/v1/journeys', {
      key: owner.sandboxKey,
      body: { ...body, key: 'screen_ruled', definition: { ...definition, rules } },
    });
    assert.equal(saved.statusCode, 201, saved.body);
    assert.deepEqual(saved.json().versions[0].definition.rules, rules);
    const decisionFor = async (country: string) => {
      const s = await t.call('POST', '/v1/verifications', {
        key: owner.sandboxKey,
        body: { journey: 'screen_ruled', subject: { type: 'individual', reference: `cust_${country}`, country } },
      });
      assert.equal(s.statusCode, 201, s.body);
      assert.equal((await t.call('POST', '/capture/v1/submit', { key: s.json().session_token })).statusCode, 202);
      await completeSessionChecks(t.db, owner.ctx(), s.json().id, [{ type: 'sanctions_pep', status: 'no_match' }]);
      return (await t.call('GET', `/v1/verifications/${s.json().id}/decision`, { key: owner.sandboxKey })).json();
    };
    const kp = await decisionFor('KP');
    assert.equal(kp.decision, 'declined', JSON.stringify(kp));
    assert.deepEqual(kp.reason_codes, ['journey_rule_high_risk_country']);
    assert.equal((await decisionFor('FR')).decision, 'approved');
  });
});

describe('GET /v1/journeys', () => {
  routeSecurityTests('listJourneys', app, { method: 'GET', url: () => '/v1/journeys', scope: 'journeys:read' });

  test('a new tenant finds the default journeys published in both environments, seeded once', async () => {
    const owner = await t.tenant();
    for (const key of [owner.sandboxKey, owner.productionKey]) {
      const [a, b] = await Promise.all([t.call('GET', '/v1/journeys', { key }), t.call('GET', '/v1/journeys', { key })]);
      assert.equal(a.statusCode, 200);
      assert.deepEqual(
        b
          .json()
          .data.map((j: { key: string }) => j.key)
          .sort(),
        ['kyc_screening_only', 'kyc_standard'],
      );
      const std = a.json().data.find((j: { key: string }) => j.key === 'kyc_standard');
      assert.equal(std.published_version, 1);
      assert.deepEqual(
        std.versions[0].definition.checks.map((c: { type: string }) => c.type),
        ['document', 'liveness', 'face_match', 'sanctions_pep', 'risk_score'],
      );
    }
    const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM journeys WHERE account_id = $1', [owner.accountId]);
    assert.equal(n!.n, 4);
  });

  test('pages with a cursor', async () => {
    const owner = await t.tenant();
    for (const k of ['a1', 'a2', 'a3']) await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, key: `j_${k}` } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { key: string }[]; next_cursor: string | null } = (
        await t.call('GET', `/v1/journeys?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: owner.sandboxKey })
      ).json();
      seen.push(...page.data.map((j) => j.key));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(seen.sort(), ['j_a1', 'j_a2', 'j_a3', 'kyc_screening_only', 'kyc_standard']);
  });
});

describe('POST /v1/journeys/{key}/versions/{version}/publish', () => {
  const createDraft = async (tt: TestApp, owner: { sandboxKey: string }) =>
    (await tt.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, key: 'sec_draft', publish: false } })).json()
      .key as string;
  routeSecurityTests('publishJourneyVersion', app, {
    method: 'POST',
    url: (key) => `/v1/journeys/${key}/versions/1/publish`,
    scope: 'journeys:write',
    create: createDraft,
  });

  test('a draft goes live, sessions start on it, and an older version can be published again (rollback)', async () => {
    const owner = await t.tenant();
    const subject = { type: 'individual', reference: 'c1' };
    await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, key: 'roll', publish: false } });
    assert.equal(
      (await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: { journey: 'roll', subject } })).json().error.field,
      'journey',
    );
    const pub = await t.call('POST', '/v1/journeys/roll/versions/1/publish', { key: owner.sandboxKey });
    assert.equal(pub.statusCode, 200);
    assert.equal(pub.json().published_version, 1);
    assert.equal(pub.json().versions[0].status, 'published');
    assert.equal(
      (await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: { journey: 'roll', subject } })).json().journey_version,
      1,
    );
    await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, key: 'roll' } });
    assert.equal(
      (await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: { journey: 'roll', subject } })).json().journey_version,
      2,
    );
    assert.equal((await t.call('POST', '/v1/journeys/roll/versions/1/publish', { key: owner.sandboxKey })).json().published_version, 1);
    assert.equal(
      (await t.call('POST', '/v1/verifications', { key: owner.sandboxKey, body: { journey: 'roll', subject } })).json().journey_version,
      1,
    );
    const audit = await t.db.query<{ diff: { published_version: { before: number; after: number } } | null }>(
      "SELECT diff FROM audit_events WHERE resource_id = $1 AND action = 'journey.published' AND diff IS NOT NULL ORDER BY id",
      [pub.json().id],
    );
    assert.deepEqual(
      audit.map((a) => `${a.diff!.published_version.before}->${a.diff!.published_version.after}`),
      ['null->1', '2->1'],
    );
  });

  test('an unknown key or version is 404 naming it; a version that is not a number is 400', async () => {
    const owner = await t.tenant();
    await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body: { ...body, key: 'only_one', publish: false } });
    const noVersion = await t.call('POST', '/v1/journeys/only_one/versions/2/publish', { key: owner.sandboxKey });
    assert.equal(noVersion.statusCode, 404);
    assert.equal(noVersion.json().error.field, 'version');
    assert.equal((await t.call('POST', '/v1/journeys/nope/versions/1/publish', { key: owner.sandboxKey })).json().error.field, 'key');
    const bad = await t.call('POST', '/v1/journeys/only_one/versions/two/publish', { key: owner.sandboxKey });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.field, 'version');
  });
});
