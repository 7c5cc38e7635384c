import type { RequestContext } from '../../platform/context.js';
import { diffRecords, emitAudit } from '../../platform/audit.js';
import { notFound } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { newId } from '../../platform/ids.js';
import type { Sealer } from '../../platform/crypto.js';
import { monitoredSubjects, openQuery, sealQuery, toMonitoredSubject, type StoredQuery } from './repository.js';
import type { EnrolSubject, MonitoredSubject } from './schemas.js';

/**
 * Enrols a subject for ongoing monitoring. One live enrolment per subject_reference: enrolling the
 * same reference again returns it (200), updated to the new query fields if they differ (audited
 * with a diff). Enrolment does not screen: call POST /v1/checks/screening for the initial screening.
 */
export async function enrolSubject({
  ctx,
  sealer,
  input,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  input: EnrolSubject;
}): Promise<{ created: boolean; subject: MonitoredSubject }> {
  const { subject_reference, datasets, sources, threshold, ...rest } = input;
  const query: StoredQuery = JSON.parse(JSON.stringify(rest)) as StoredQuery;
  const fields = { query, datasets: datasets ?? null, sources: sources ?? null, threshold: threshold ?? null };
  return withTransaction(
    ctx,
    async (tx) => {
      const existing = await monitoredSubjects.byReference(tx, ctx, subject_reference);
      if (!existing) {
        const row = await monitoredSubjects.insert(tx, ctx, {
          id: newId('monitoredSubject'),
          subject_reference,
          ...fields,
          query: sealQuery(sealer, query),
        });
        await emitAudit(tx, ctx, {
          action: 'monitored_subject.enrolled',
          resourceType: 'monitored_subject',
          resourceId: row.id,
          metadata: { subject_reference, datasets: fields.datasets, sources: fields.sources },
        });
        return { created: true, subject: toMonitoredSubject(row, sealer) };
      }
      const before = {
        query: sortKeys(openQuery(sealer, existing.query)),
        datasets: existing.datasets,
        sources: existing.sources,
        threshold: existing.threshold,
      };
      const diff = diffRecords(before, { ...fields, query: sortKeys(fields.query) });
      if (Object.keys(diff).length === 0) return { created: false, subject: toMonitoredSubject(existing, sealer) };
      const row = await monitoredSubjects.update(tx, ctx, existing.id, { ...fields, query: sealQuery(sealer, query) });
      // The audit trail records which fields changed, not the personal data itself.
      await emitAudit(tx, ctx, {
        action: 'monitored_subject.updated',
        resourceType: 'monitored_subject',
        resourceId: row.id,
        metadata: { changed: Object.keys(diff).flatMap((k) => (k === 'query' ? changedQueryFields(before.query, fields.query) : [k])) },
      });
      return { created: false, subject: toMonitoredSubject(row, sealer) };
    },
    { response: (r) => r.subject },
  );
}

function changedQueryFields(a: StoredQuery, b: StoredQuery): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof StoredQuery>;
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}

/** jsonb does not keep key order, so both sides are compared with sorted keys. */
function sortKeys<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b))) as T;
}

export async function unenrolSubject({ ctx, sealer, id }: { ctx: RequestContext; sealer: Sealer; id: string }): Promise<MonitoredSubject> {
  return withTransaction(ctx, async (tx) => {
    const row = await monitoredSubjects.softDelete(tx, ctx, id);
    if (!row) throw notFound('monitored subject', 'id');
    await emitAudit(tx, ctx, {
      action: 'monitored_subject.unenrolled',
      resourceType: 'monitored_subject',
      resourceId: id,
      metadata: { subject_reference: row.subject_reference },
    });
    return toMonitoredSubject(row, sealer);
  });
}
