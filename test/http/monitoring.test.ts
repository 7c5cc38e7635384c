import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { sharedData, SKIP_NO_DATA } from '../../src/providers/lists/fixtures/shared-data.js';
import { importListFile } from '../../src/modules/checks/screening/list-sync.js';
import { monitoringJobHandlers } from '../../src/modules/monitoring/jobs.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { Sealer } from '../../src/platform/crypto.js';
import { rescreenSnapshot } from '../../src/modules/monitoring/rescreen.js';
import { monitoringAlerts } from '../../src/modules/monitoring/repository.js';
import { snapshots } from '../../src/modules/checks/screening/snapshot-repository.js';
import { newId } from '../../src/platform/ids.js';
import { SCREENING_INDEX } from '../../src/modules/checks/screening/index-cache.js';

let t: TestApp;
before(async () => {
  // No screening requests here: keep the background index builds of the imported lists out of the timings.
  t = await createTestApp({ env: { SCREENING_INDEX_REFRESH_MS: '3600000' } });
});
after(() => t.close());
const app = () => t;

const enrol = (key: string, body: unknown) => t.call('POST', '/v1/monitoring/subjects', { key, body });
const subject = { subject_reference: 'cus_m1', name: 'Jane Roe', date_of_birth: '1980-02-03', country: 'GB', datasets: ['sanctions'] };
const create = async (tt: TestApp, o: Tenant) =>
  (await tt.call('POST', '/v1/monitoring/subjects', { key: o.sandboxKey, body: subject })).json().id as string;

describe('monitoring subjects', () => {
  routeSecurityTests('enrolMonitoredSubject', app, {
    method: 'POST',
    url: () => '/v1/monitoring/subjects',
    scope: 'screening:write',
    body: subject,
    malformed: { body: { ...subject, entity_type: 'planet' }, field: 'entity_type' },
  });
  routeSecurityTests('listMonitoredSubjects', app, { method: 'GET', url: () => '/v1/monitoring/subjects', scope: 'screening:read' });
  routeSecurityTests('getMonitoredSubject', app, {
    method: 'GET',
    url: (id) => `/v1/monitoring/subjects/${id}`,
    scope: 'screening:read',
    create,
  });
  routeSecurityTests('unenrolMonitoredSubject', app, {
    method: 'DELETE',
    url: (id) => `/v1/monitoring/subjects/${id}`,
    scope: 'screening:write',
    create,
  });
  routeSecurityTests('listMonitoringAlerts', app, { method: 'GET', url: () => '/v1/monitoring/alerts', scope: 'screening:read' });
  routeSecurityTests('getMonitoringAlert', app, {
    method: 'GET',
    url: (id) => `/v1/monitoring/alerts/${id}`,
    scope: 'screening:read',
    create: async (tt, o) => {
      // An alert as the re-screen job writes it, on the built-in sandbox snapshot.
      const subjectId = await create(tt, o);
      await tt.resources.get(SCREENING_INDEX).get(); // the built-in sandbox snapshot is installed by the first refresh
      const snap = (await snapshots.activeFor(tt.db, 'sandbox'))!;
      const hit = {
        entity_id: 'sandbox:pep',
        source: 'sandbox',
        schema: 'person',
        names: ['Sandbox Politically Exposed'],
        datasets: ['pep'],
        programs: [],
        listed_at: null,
        source_url: null,
        score: 0.9,
        blocked: false,
        explanation: { matched: [], contradicted: [], components: {} },
      };
      const row = await monitoringAlerts.insertOnce(
        tt.db,
        { accountId: o.accountId, environment: 'sandbox' },
        {
          id: newId('alert'),
          monitored_subject_id: subjectId,
          subject_reference: subject.subject_reference,
          entity_id: hit.entity_id,
          source: 'sandbox',
          snapshot_id: snap.id,
          reason: 'added',
          score: 0.9,
          hit,
        },
      );
      return row!.id;
    },
  });

  test('enrolment is audited and idempotent per subject_reference; a change is audited with a diff', async () => {
    const o = await t.tenant();
    const a = await enrol(o.sandboxKey, subject);
    assert.equal(a.statusCode, 201);
    assert.match(a.json().id, /^msub_/);
    assert.deepEqual(a.json().countries, ['GB']);
    const again = await enrol(o.sandboxKey, subject);
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().id, a.json().id);
    const changed = await enrol(o.sandboxKey, { ...subject, date_of_birth: '1980' });
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.json().date_of_birth, '1980');
    const audit = await t.db.query<{ action: string; metadata: { changed?: string[] } }>(
      'SELECT action, metadata FROM audit_events WHERE resource_id = $1 ORDER BY id',
      [a.json().id],
    );
    assert.deepEqual(
      audit.map((r) => r.action),
      ['monitored_subject.enrolled', 'monitored_subject.updated'],
    );
    assert.deepEqual(audit[1]!.metadata.changed, ['date_of_birth']);
    // The query is sealed at rest.
    const [raw] = await t.db.query<{ q: string }>('SELECT query::text AS q FROM monitored_subjects WHERE id = $1', [a.json().id]);
    assert.ok(!raw!.q.includes('Jane'));
    const list = (await t.call('GET', '/v1/monitoring/subjects', { key: o.sandboxKey })).json();
    assert.equal(list.data.length, 1);
    const del = await t.call('DELETE', `/v1/monitoring/subjects/${a.json().id}`, { key: o.sandboxKey });
    assert.equal(del.statusCode, 200);
    assert.equal((await t.call('GET', `/v1/monitoring/subjects/${a.json().id}`, { key: o.sandboxKey })).statusCode, 404);
    assert.equal((await t.call('DELETE', `/v1/monitoring/subjects/${a.json().id}`, { key: o.sandboxKey })).statusCode, 404);
    // After unenrolment the reference can be enrolled afresh.
    assert.equal((await enrol(o.sandboxKey, subject)).statusCode, 201);
  });
});

describe('re-screening after a list update (real OFAC SDN 2024-04-25 → 2024-05-03)', () => {
  const dir = sharedData('sanctions', 'ofac_sdn_csv_2024_snapshots');
  const drain = () =>
    new JobRunner({ db: t.db, handlers: monitoringJobHandlers(t.resources, () => new Sealer(t.config.masterKey)) }).drain();

  test(
    'only the delta is re-matched; new hits raise one alert and one event each; allow entries and removals are honoured',
    { skip: dir ? false : SKIP_NO_DATA },
    async () => {
      const o = await t.tenant();
      const add = async (body: Record<string, unknown>) => assert.equal((await enrol(o.sandboxKey, body)).statusCode, 201);
      // Firas Hasan MOUKALLED (ofac-sdn:48325) and Mazen Hassan AL-ZEIN (48323) were added on 2024-05-03;
      // EMPEROR AVIATION LTD (38556) was removed that day.
      await add({ subject_reference: 'cus_firas', name: 'Firas Hassan Moukaled', date_of_birth: '1990-10-09' });
      await add({ subject_reference: 'cus_mazen', name: 'Mazen Al Zein', date_of_birth: '1974-06-21' });
      await add({ subject_reference: 'cus_emperor', name: 'Emperor Aviation Limited', entity_type: 'organization' });
      await add({ subject_reference: 'cus_plain', name: 'Eleanor Quimby', date_of_birth: '1985-01-01' });
      await add({ subject_reference: 'cus_pep_only', name: 'Firas Hasan Moukalled', datasets: ['pep'] });
      const allow = await t.call('POST', '/v1/lists/allowlist/entries', {
        key: o.sandboxKey,
        body: { kind: 'screening_entity', value: 'ofac-sdn:48323', subject_reference: 'cus_mazen', reason: 'reviewed: different person' },
      });
      assert.equal(allow.statusCode, 201);

      const first = await importListFile(t.db, { path: `${dir}/sdn_2024-04-25.csv`, format: 'ofac_csv' }, t.resources);
      assert.ok(first.ok);
      await drain();
      const alerts1 = (await t.call('GET', '/v1/monitoring/alerts', { key: o.sandboxKey })).json().data;
      assert.deepEqual(
        alerts1.map((a: { subject_reference: string }) => a.subject_reference),
        ['cus_emperor'],
      );
      assert.equal(alerts1[0].entity_id, 'ofac-sdn:38556');

      const second = await importListFile(t.db, { path: `${dir}/sdn_2024-05-03.csv`, format: 'ofac_csv' }, t.resources);
      assert.ok(second.ok && !second.unchanged);
      const [job] = await t.db.query<{ payload: { previous_snapshot_id: string; snapshot_id: string } }>(
        "SELECT payload FROM jobs WHERE queue = 'screening.rescreen' AND state = 'queued'",
      );
      assert.equal(job!.payload.previous_snapshot_id, first.snapshot.id);
      assert.equal(job!.payload.snapshot_id, second.snapshot.id);
      await drain();

      const open = (await t.call('GET', '/v1/monitoring/alerts?state=open', { key: o.sandboxKey })).json().data;
      assert.deepEqual(
        open.map((a: { subject_reference: string }) => a.subject_reference),
        ['cus_firas'],
      );
      const alert = open[0];
      assert.equal(alert.entity_id, 'ofac-sdn:48325');
      assert.equal(alert.reason, 'added');
      assert.equal(alert.snapshot_id, second.snapshot.id);
      assert.ok(alert.score >= 0.8);
      assert.ok(alert.hit.explanation.matched.length > 0);
      const closed = (await t.call('GET', '/v1/monitoring/alerts?state=closed', { key: o.sandboxKey })).json().data;
      assert.equal(closed[0].subject_reference, 'cus_emperor');
      assert.equal(closed[0].closed_reason, 'entity_removed');

      const events = (await t.call('GET', `/v1/events?resource_id=${alert.id}`, { key: o.sandboxKey })).json().data;
      assert.equal(events.length, 1);
      assert.equal(events[0].type, 'screening.rescreening_hit');
      assert.equal(events[0].data.subject_reference, 'cus_firas');
      assert.equal(events[0].data.alert_id, alert.id);
      const one = (await t.call('GET', `/v1/monitoring/alerts/${alert.id}`, { key: o.sandboxKey })).json();
      assert.deepEqual(one, alert);
      assert.equal(events[0].data.reason, 'added');
      assert.deepEqual(events[0].data.programs, ['SDGT']);
      const audit = await t.db.query<{ action: string; actor_type: string }>(
        'SELECT action, actor_type FROM audit_events WHERE resource_id = $1',
        [alert.id],
      );
      assert.deepEqual(audit, [{ action: 'monitoring_alert.created', actor_type: 'system' }]);

      // A retried job raises nothing twice.
      const again = await rescreenSnapshot(t.resources, new Sealer(t.config.masterKey), {
        source: 'ofac_sdn',
        snapshot_id: second.snapshot.id,
        previous_snapshot_id: first.snapshot.id,
      });
      assert.equal(again.added, 305);
      assert.equal(again.removed, 10);
      assert.equal(again.alertsRaised, 0);
      // The event is in the webhook catalogue.
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.ok(doc.webhooks['screening.rescreening_hit']);
    },
  );
});
