import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

/**
 * What a case points at in another module: a verification review case at a session (`session_id`), a
 * monitoring alert's case at that alert (`alert_id`). The owning module implements it over its own
 * tables and the entry points register it (`registerCaseSubjectSources(CASE_SUBJECT_SOURCES)`,
 * src/modules/index.ts), so the cases repository reads and writes only cases, case_transitions and alerts.
 */
export interface CaseSubjectSource {
  /** The cases column that names this source's object. */
  readonly column: 'session_id' | 'alert_id';
  /** The subject reference of each of these objects that still has one. */
  subjectReferences(db: Queryable, t: Tenant, ids: readonly string[]): Promise<Map<string, string>>;
  /** In the transaction that closes a case pointing at the object (monitoring closes its open alert). */
  caseClosed?(tx: Queryable, t: Tenant, id: string): Promise<void>;
}

// Declarations, not state: the same list in every process (as the event catalogue), read by every database.
const sources = new Map<CaseSubjectSource['column'], CaseSubjectSource>();

/** Called by the entry points with the one list; registering again replaces (idempotent). */
export function registerCaseSubjectSources(list: readonly CaseSubjectSource[]): void {
  for (const s of list) sources.set(s.column, s);
}

function source(column: CaseSubjectSource['column']): CaseSubjectSource {
  const s = sources.get(column);
  if (!s) throw new Error(`no case subject source for ${column}: the entry point must call registerCaseSubjectSources`);
  return s;
}

interface SubjectFields {
  session_id: string | null;
  alert_id: string | null;
  /** On entry: the latest generic alert's subject reference; on return: the case's. */
  subject_reference: string | null;
}

/**
 * Each case's subject reference, read from the session, else the monitoring alert, else the latest
 * generic alert (kept where it is, so deletion needs no second copy): one query per source for a page.
 */
export async function withSubjectReferences<R extends SubjectFields>(db: Queryable, t: Tenant, rows: R[]): Promise<R[]> {
  for (const column of ['alert_id', 'session_id'] as const) {
    const ids = [...new Set(rows.map((r) => r[column]).filter((id): id is string => id !== null))];
    if (ids.length === 0) continue;
    const refs = await source(column).subjectReferences(db, t, ids);
    for (const r of rows) {
      const ref = r[column] === null ? undefined : refs.get(r[column]);
      if (ref !== undefined) r.subject_reference = ref;
    }
  }
  return rows;
}

/** Tells the owners of what a closing case points at (inside the closing transaction). */
export async function caseSubjectsClosed(tx: Queryable, t: Tenant, c: Pick<SubjectFields, 'session_id' | 'alert_id'>): Promise<void> {
  for (const column of ['session_id', 'alert_id'] as const) {
    const id = c[column];
    if (id !== null) await source(column).caseClosed?.(tx, t, id);
  }
}
