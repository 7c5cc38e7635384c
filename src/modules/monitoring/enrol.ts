import type { RequestContext } from '../../platform/context.js';
import { diffRecords, emitAudit } from '../../platform/audit.js';
import { notFound } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { screeningId } from '../screening/ids.js';
import { monitoredSubjects, toMonitoredSubject, type StoredQuery } from './repository.js';
import type { EnrolSubject, MonitoredSubject } from './schemas.js';

/**
 * Enrols a subject for ongoing monitoring. One live enrolment per subject_reference: enrolling the
 * same reference again returns it (200), updated to the new query fields if they differ (audited
 * with a diff). Enrolment does not screen: call POST /v1/checks/screening for the initial screening.
 */
export async function enrolSubject({ ctx, input }: { ctx: RequestContext; input: EnrolSubject }): Promise<{ created: boolean; subject: MonitoredSubject }> {
  const { subject_reference, datasets, sources, threshold, ...rest } = input;
  const query: StoredQuery = JSON.parse(JSON.stringify(rest)) as StoredQuery;
  const fields = { query, datasets: datasets ?? null, sources: sources ?? null, threshold: threshold ?? null };
  return withTransaction(ctx, async (tx) => {
    const existing = await monitoredSubjects.byReference(tx, ctx, subject_reference);
    if (!existing) {
      const row = await monitoredSubjects.insert(tx, ctx, { id: screeningId('monitoredSubject'), subject_reference, ...fields });
      await emitAudit(tx, ctx, { action: 'monitored_subject.enrolled', resourceType: 'monitored_subject', resourceId: row.id, metadata: { subject_reference, datasets: fields.datasets, sources: fields.sources } });
      return { created: true, subject: toMonitoredSubject(row) };
    }
    const before = { query: sortKeys(existing.query), datasets: existing.datasets, sources: existing.sources, threshold: existing.threshold };
    const diff = diffRecords(before, { ...fields, query: sortKeys(fields.query) });
    if (Object.keys(diff).length === 0) return { created: false, subject: toMonitoredSubject(existing) };
    const row = await monitoredSubjects.update(tx, ctx, existing.id, fields);
    await emitAudit(tx, ctx, { action: 'monitored_subject.updated', resourceType: 'monitored_subject', resourceId: row.id, diff });
    return { created: false, subject: toMonitoredSubject(row) };
  });
}

/** jsonb does not keep key order, so both sides are compared with sorted keys. */
function sortKeys<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b))) as T;
}

export async function unenrolSubject({ ctx, id }: { ctx: RequestContext; id: string }): Promise<MonitoredSubject> {
  return withTransaction(ctx, async (tx) => {
    const row = await monitoredSubjects.softDelete(tx, ctx, id);
    if (!row) throw notFound('monitored subject', 'id');
    await emitAudit(tx, ctx, { action: 'monitored_subject.unenrolled', resourceType: 'monitored_subject', resourceId: id, metadata: { subject_reference: row.subject_reference } });
    return toMonitoredSubject(row);
  });
}
