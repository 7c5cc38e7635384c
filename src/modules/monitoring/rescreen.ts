import type { Db, Queryable } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import { systemContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { DEFAULT_THRESHOLD } from '../../engines/screening/index.js';
import { diffSnapshots } from '../../engines/screening/snapshot-diff.js';
import { rescreenDelta, type RescreenAlert } from '../../engines/screening/rescreen.js';
import { snapshots } from '../screening/snapshot-repository.js';
import { newId } from '../../platform/ids.js';
import { SANDBOX_SOURCE } from '../screening/activate-snapshot.js';
import { toApiHit, toScreeningQuery } from '../screening/run-screening.js';
import { monitoredSubjects, monitoringAlerts, openQuery, type SubjectRow } from './repository.js';
import { RESCREENING_HIT } from './events.js';
import { openAlertCase } from '../cases/open-case.js';
import { closeAlertCases } from '../cases/close-case.js';

export interface RescreenPayload {
  source: string;
  snapshot_id: string;
  previous_snapshot_id: string | null;
}

export interface RescreenSummary {
  added: number;
  changed: number;
  removed: number;
  subjectsScreened: number;
  alertsRaised: number;
  alertsClosed: number;
}

/** Subjects per batch: one delta index build and one alert transaction per batch. */
const BATCH = 2000;

/** Allowlist "not this person" entries of a batch's subjects: subject_reference → entity ids. */
async function allowEntries(db: Queryable, t: { accountId: string; environment: string }, refs: string[]): Promise<Map<string, Set<string>>> {
  const rows = await db.query<{ subject_reference: string; value: string }>(
    `SELECT subject_reference, value FROM list_entries WHERE account_id = $1 AND environment = $2 AND list = 'allowlist' AND kind = 'screening_entity'
       AND subject_reference = ANY($3::text[]) AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [t.accountId, t.environment, refs],
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) out.set(r.subject_reference, (out.get(r.subject_reference) ?? new Set()).add(r.value.trim()));
  return out;
}

/** A subject's own selection (data sets, threshold) applied to the delta's hits. */
function wanted(s: SubjectRow, a: RescreenAlert): boolean {
  if (a.hit.score < (s.threshold ?? DEFAULT_THRESHOLD)) return false;
  return !s.datasets || a.hit.datasets.some((d) => s.datasets!.includes(d));
}

/**
 * The `screening.rescreen` job: after a snapshot of one source became active, diffs it against the
 * previous one and screens every enrolled subject of every tenant against the added and changed
 * entities only. Each new hit (not alerted before for that subject and entity, not allow-listed)
 * becomes an alert and a screening.rescreening_hit event, committed together per tenant batch.
 * Re-running it (a retried job) raises nothing twice: alerts are unique per subject and entity.
 */
export async function rescreenSnapshot(db: Db, sealer: Sealer | (() => Sealer), p: RescreenPayload, requestId = 'job:screening.rescreen'): Promise<RescreenSummary> {
  const next = await snapshots.get(db, p.snapshot_id);
  if (!next) throw new Error(`snapshot ${p.snapshot_id} does not exist`);
  const prev = p.previous_snapshot_id ? await snapshots.entities(db, p.previous_snapshot_id) : [];
  const diff = diffSnapshots(prev, await snapshots.entities(db, p.snapshot_id));
  const listed = new Map([...diff.added, ...diff.changed].map((e) => [e.id, e]));
  const summary: RescreenSummary = { added: diff.added.length, changed: diff.changed.length, removed: diff.removed.length, subjectsScreened: 0, alertsRaised: 0, alertsClosed: 0 };
  // An entity that left its list closes its open alerts, and their cases with them.
  summary.alertsClosed = await db.transaction(async (tx) => {
    const closed = await monitoringAlerts.closeRemoved(tx, diff.removed.map((e) => e.id));
    await closeAlertCases(tx, db, closed, requestId);
    return closed.length;
  });
  if (diff.added.length + diff.changed.length === 0) return summary;

  for (const tenant of await monitoredSubjects.tenants(db)) {
    // The fictitious sandbox list never alerts production subjects.
    if (p.source === SANDBOX_SOURCE && tenant.environment === 'production') continue;
    let after = '';
    for (;;) {
      const batch = await monitoredSubjects.batch(db, tenant, after, BATCH);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.id;
      const eligible = batch.filter((s) => !s.sources || s.sources.includes(p.source));
      if (eligible.length === 0) continue;
      const byId = new Map(eligible.map((s) => [s.id, s]));
      const allow = await allowEntries(db, tenant, eligible.map((s) => s.subject_reference));
      const threshold = Math.min(...eligible.map((s) => s.threshold ?? DEFAULT_THRESHOLD));
      const r = rescreenDelta(eligible.map((s) => ({ subjectId: s.id, query: toScreeningQuery(openQuery(typeof sealer === 'function' ? sealer() : sealer, s.query)) })), diff, {
        threshold,
        limit: 50,
        allowFor: (id) => allow.get(byId.get(id)!.subject_reference),
      });
      summary.subjectsScreened += r.subjectsScreened;
      const alerts = r.alerts.filter((a) => wanted(byId.get(a.subjectId)!, a));
      if (alerts.length === 0) continue;
      const ctx = systemContext(db, tenant.accountId, tenant.environment, requestId);
      summary.alertsRaised += await db.transaction(async (tx) => {
        let raised = 0;
        for (const a of alerts) {
          const s = byId.get(a.subjectId)!;
          const hit = toApiHit(a.hit, listed.get(a.hit.entityId));
          const row = await monitoringAlerts.insertOnce(tx, tenant, { id: newId('alert'), monitored_subject_id: s.id, subject_reference: s.subject_reference, entity_id: hit.entity_id, source: hit.source, snapshot_id: next.id, reason: a.reason, score: hit.score, hit });
          if (!row) continue;
          raised++;
          await emitAudit(tx, ctx, { action: 'monitoring_alert.created', resourceType: 'monitoring_alert', resourceId: row.id, metadata: { monitored_subject_id: s.id, entity_id: hit.entity_id, snapshot_id: next.id, reason: a.reason } });
          // The alert is worked as a case (owner, severity, state) in the review queue, GET /v1/cases.
          const caseId = await openAlertCase(tx, ctx, { id: row.id, reason: a.reason, hit });
          await enqueueEvent(tx, ctx, {
            type: RESCREENING_HIT,
            resourceType: 'monitoring_alert',
            resourceId: row.id,
            data: { alert_id: row.id, monitored_subject_id: s.id, subject_reference: s.subject_reference, entity_id: hit.entity_id, source: hit.source, names: hit.names, datasets: hit.datasets, programs: hit.programs, score: hit.score, reason: a.reason, snapshot_id: next.id, case_id: caseId },
          });
        }
        return raised;
      });
    }
  }
  return summary;
}
