import type { Queryable } from '../../platform/db.js';
import { withSubjectReferences } from './subject-sources.js';
import type { Actor, RequestContext } from '../../platform/context.js';
import { conflict } from '../../platform/errors.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import { transition, IllegalCaseTransition, type CaseEvent, type CaseState } from './state-machine.js';
import { SEVERITIES, type Severity } from './severity.js';
import { CASE_KINDS, type Alert, type Case, type CaseKind, type CaseOutcome, type CasesQuery } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;
type Who = Tenant & { actor?: Actor; requestId?: string | null };

export interface CaseRow {
  id: string;
  account_id: string;
  environment: string;
  kind: CaseKind;
  session_id: string | null;
  alert_id: string | null;
  /** Generic subject (migration 0021): 'verification' (session id) or 'monitoring_alert' (alert id). */
  subject_type: string;
  subject_id: string;
  state: CaseState;
  severity: Severity;
  owner: string | null;
  reason_code: string;
  reason_codes: string[];
  resolution: string | null;
  /** Migration 0039. */
  outcome: CaseOutcome | null;
  snoozed_until: Date | null;
  /** From the session (null once deleted) or the alert. */
  subject_reference: string | null;
  /** Generic alerts attached (alert_review cases). */
  alert_count: number;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
}
export interface CaseTransitionRow {
  from_state: CaseState | null;
  to_state: CaseState;
  event: string;
  actor: string;
  at: Date;
}

/**
 * Cases with the latest generic alert's subject reference and the number of generic alerts attached. A
 * session's or monitoring alert's case takes that object's subject instead (withSubjectReferences: its
 * owner reads it, so deletion needs no second copy).
 */
const VIEW = `(SELECT c.*,
    (SELECT al.subject_reference FROM alerts al WHERE al.case_id = c.id ORDER BY al.id DESC LIMIT 1) AS subject_reference,
    (SELECT count(*)::int FROM alerts al WHERE al.case_id = c.id) AS alert_count
  FROM cases c)`;

/** The severities in rising order as an SQL constant: part of the statement's text, not a parameter (an array value keeps a statement out of batches and prepared statements). */
const SEVERITY_ORDER = `ARRAY[${SEVERITIES.map((s) => `'${s}'`).join(', ')}]::text[]`;
/** Severity as a sort key (critical first); the same expression as the queue index of migration 0033. */
const SEVERITY_RANK = "(CASE severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END)";

/** How many of a case's alerts GET /v1/cases shows (the latest); alert_count has the total. */
export const CASE_ALERTS_SHOWN = 20;

const actorOf = (w: Who) => (w.actor ? `${w.actor.type}:${w.actor.id}` : 'system:system');

export function toAlert(a: AlertRow): Alert {
  return {
    id: a.id,
    object: 'alert',
    kind: a.kind,
    severity: a.severity,
    state: a.state,
    subject_type: a.subject_type,
    subject_id: a.subject_id,
    subject_reference: a.subject_reference,
    title: a.title,
    details: a.details ?? {},
    case_id: a.case_id,
    occurrences: a.occurrences,
    created_at: iso(a.created_at)!,
    last_seen_at: iso(a.last_seen_at)!,
    closed_at: iso(a.closed_at),
  };
}

export function toCase(r: CaseRow, trail?: CaseTransitionRow[], alerts: AlertRow[] = []): Case {
  return {
    id: r.id,
    object: 'case',
    kind: r.kind,
    state: r.state,
    severity: r.severity,
    owner: r.owner,
    reason_code: r.reason_code,
    reason_codes: r.reason_codes ?? [],
    subject_reference: r.subject_reference,
    verification_id: r.session_id,
    alert_id: r.alert_id,
    subject_type: r.subject_type,
    subject_id: r.subject_id,
    alert_count: r.alert_count ?? 0,
    alerts: alerts.map(toAlert),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    closed_at: iso(r.closed_at),
    resolution: r.resolution,
    outcome: r.outcome ?? null,
    snoozed_until: iso(r.snoozed_until),
    ...(trail
      ? { transitions: trail.map((x) => ({ from: x.from_state, to: x.to_state, event: x.event, actor: x.actor, at: iso(x.at)! })) }
      : {}),
  };
}

/** What a case is about, generically (migration 0021): a verification session or a monitoring alert. */
export function caseSubject(c: {
  kind: CaseKind;
  sessionId?: string | null;
  alertId?: string | null;
  subject?: { type: string; id: string };
}): [subjectType: string, subjectId: string] {
  if (c.subject) return [c.subject.type, c.subject.id];
  return c.kind === 'screening_alert' ? ['monitoring_alert', c.alertId!] : ['verification', c.sessionId!];
}

export interface BacklogRow {
  kind: string;
  open: number;
  past_sla: number;
  oldest: Date | null;
}

export const caseRows = {
  /**
   * Open cases per case kind, and per alert kind for alert_review cases (a case counted once per kind it
   * holds), with those created before `cutoff` and the oldest: one statement over the open cases only.
   */
  async backlog(db: Queryable, t: Tenant, cutoff: Date): Promise<BacklogRow[]> {
    return db.query<BacklogRow>(
      `SELECT kind, count(*)::int AS open, (count(*) FILTER (WHERE created_at < $3::timestamptz))::int AS past_sla, min(created_at) AS oldest
         FROM cases WHERE account_id = $1 AND environment = $2 AND state = 'open' GROUP BY kind
       UNION ALL
       SELECT a.kind, count(*)::int, (count(*) FILTER (WHERE c.created_at < $3::timestamptz))::int, min(c.created_at)
         FROM cases c JOIN LATERAL (SELECT DISTINCT al.kind FROM alerts al WHERE al.case_id = c.id) a ON true
        WHERE c.account_id = $1 AND c.environment = $2 AND c.state = 'open' AND c.kind = 'alert_review'
        GROUP BY a.kind`,
      [t.accountId, t.environment, cutoff.toISOString()],
    );
  },

  /** Opens a case (state open) and writes its first trail row. */
  async open(
    tx: Queryable,
    w: Who,
    c: {
      id: string;
      kind: CaseKind;
      sessionId?: string | null;
      alertId?: string | null;
      /** alert_review cases: the subject the alerts are about. */
      subject?: { type: string; id: string };
      severity: Severity;
      reasonCode: string;
      reasonCodes: string[];
    },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO cases (id, account_id, environment, kind, session_id, alert_id, state, severity, reason_code, reason_codes, subject_type, subject_id)
       VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9::text[], $10, $11)`,
      [
        c.id,
        w.accountId,
        w.environment,
        c.kind,
        c.sessionId ?? null,
        c.alertId ?? null,
        c.severity,
        c.reasonCode,
        c.reasonCodes,
        ...caseSubject(c),
      ],
    );
    await tx.query(
      `INSERT INTO case_transitions (case_id, account_id, environment, from_state, to_state, event, actor, request_id) VALUES ($1, $2, $3, NULL, 'open', 'opened', $4, $5)`,
      [c.id, w.accountId, w.environment, actorOf(w), w.requestId ?? null],
    );
  },

  async get(db: Queryable, t: Tenant, id: string): Promise<CaseRow | null> {
    const rows = await db.query<CaseRow>(`SELECT * FROM ${VIEW} x WHERE account_id = $1 AND environment = $2 AND id = $3`, [
      t.accountId,
      t.environment,
      id,
    ]);
    return (await withSubjectReferences(db, t, rows))[0] ?? null;
  },

  /** Locks the case row for a multi-step change (PATCH). */
  async lock(tx: Queryable, t: Tenant, id: string): Promise<CaseRow | null> {
    const rows = await tx.query<{ id: string }>('SELECT id FROM cases WHERE account_id = $1 AND environment = $2 AND id = $3 FOR UPDATE', [
      t.accountId,
      t.environment,
      id,
    ]);
    return rows[0] ? caseRows.get(tx, t, id) : null;
  },

  /** The session's cases that are not closed yet (normally one), locked. */
  async unclosedOfSession(tx: Queryable, t: Tenant, sessionId: string): Promise<CaseRow[]> {
    const locked = await tx.query<{ id: string }>(
      "SELECT id FROM cases WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND state <> 'closed' ORDER BY id FOR UPDATE",
      [t.accountId, t.environment, sessionId],
    );
    if (locked.length === 0) return [];
    const rows = await tx.query<CaseRow>(
      `SELECT * FROM ${VIEW} x WHERE account_id = $1 AND environment = $2 AND id = ANY($3::text[]) ORDER BY id`,
      [t.accountId, t.environment, locked.map((r) => r.id)],
    );
    return withSubjectReferences(tx, t, rows);
  },

  /** Locks the not yet closed cases of a monitoring alert; returns their ids. */
  async lockUnclosedOfAlert(tx: Queryable, t: Tenant, alertId: string): Promise<string[]> {
    const rows = await tx.query<{ id: string }>(
      "SELECT id FROM cases WHERE account_id = $1 AND environment = $2 AND alert_id = $3 AND state <> 'closed' FOR UPDATE",
      [t.accountId, t.environment, alertId],
    );
    return rows.map((r) => r.id);
  },
  async page(db: Queryable, t: Tenant, q: CasesQuery) {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length + 2}`));
    };
    if (q.state) add('state = ?', q.state);
    if (q.kind && (CASE_KINDS as readonly string[]).includes(q.kind)) add('kind = ?', q.kind);
    else if (q.kind) add("kind = 'alert_review' AND EXISTS (SELECT 1 FROM alerts al WHERE al.case_id = x.id AND al.kind = ?)", q.kind);
    if (q.subject_type) add('subject_type = ?', q.subject_type);
    if (q.subject_id) add('subject_id = ?', q.subject_id);
    if (q.owner === 'none') where.push('owner IS NULL');
    else if (q.owner) add('owner = ?', q.owner);
    if (q.severity) add('severity = ?', q.severity);
    if (q.verification_id) add('session_id = ?', q.verification_id);
    if (q.created_gte) add('created_at >= ?::timestamptz', q.created_gte);
    if (q.created_lt) add('created_at < ?::timestamptz', q.created_lt);
    if (q.snoozed === true) where.push('snoozed_until > now()');
    else if (q.snoozed === false) where.push('(snoozed_until IS NULL OR snoozed_until <= now())');
    const page = await paginate<CaseRow & Record<string, unknown>>(db, t, {
      from: `${VIEW} x`,
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'cases',
    });
    await withSubjectReferences(db, t, page.data);
    return page;
  },

  /**
   * The only way a case's state changes: the table names the next state, the UPDATE applies only
   * if the case is still in `from` (else 409), and one case_transitions row is written.
   */
  async applyTransition(
    tx: Queryable,
    w: Who,
    id: string,
    from: CaseState,
    event: CaseEvent,
    resolution: string | null = null,
  ): Promise<CaseState> {
    let to: CaseState;
    try {
      to = transition(from, event);
    } catch (err) {
      if (err instanceof IllegalCaseTransition)
        throw conflict(`The case is ${from}; ${event.replace(/_/g, ' ')} is not possible in that state.`, 'state');
      throw err;
    }
    const rows = await tx.query<{ id: string }>(
      `UPDATE cases SET state = $4, updated_at = now(),
         closed_at = CASE WHEN $4::text = 'closed' THEN now() ELSE closed_at END,
         resolution = CASE WHEN $4::text = 'closed' THEN $6 ELSE resolution END
       WHERE account_id = $1 AND environment = $2 AND id = $3 AND state = $5 RETURNING id`,
      [w.accountId, w.environment, id, to, from, resolution],
    );
    if (rows.length === 0) throw conflict(`The case is no longer ${from}; retrieve it and retry.`, 'state');
    await tx.query(
      'INSERT INTO case_transitions (case_id, account_id, environment, from_state, to_state, event, actor, request_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [id, w.accountId, w.environment, from, to, event, actorOf(w), w.requestId ?? null],
    );
    return to;
  },

  /**
   * The next open, unassigned case for "claim next", locked: the most severe first, then the oldest.
   * SKIP LOCKED lets concurrent claims pass over a row another claim holds, so two reviewers claiming
   * at once get two different cases (migration 0033 indexes exactly this order).
   */
  async lockNextUnclaimed(tx: Queryable, t: Tenant, f: { kind?: CaseKind; severity?: Severity }): Promise<string | null> {
    const rows = await tx.query<{ id: string }>(
      `SELECT id FROM cases
        WHERE account_id = $1 AND environment = $2 AND state = 'open' AND owner IS NULL
          AND (snoozed_until IS NULL OR snoozed_until <= now())
          AND ($3::text IS NULL OR kind = $3) AND ($4::text IS NULL OR severity = $4)
        ORDER BY ${SEVERITY_RANK}, created_at, id
        LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [t.accountId, t.environment, f.kind ?? null, f.severity ?? null],
    );
    return rows[0]?.id ?? null;
  },

  /** The owner of the session's review case while someone reviews it (state in_review), else null. */
  async reviewOwnerOfSession(tx: Queryable, t: Tenant, sessionId: string): Promise<string | null> {
    const rows = await tx.query<{ owner: string | null }>(
      "SELECT owner FROM cases WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND state = 'in_review' ORDER BY id DESC LIMIT 1",
      [t.accountId, t.environment, sessionId],
    );
    return rows[0]?.owner ?? null;
  },

  /** Owner, severity, snooze and outcome (not state: that is applyTransition's alone). */
  async setAttributes(
    tx: Queryable,
    t: Tenant,
    id: string,
    a: { owner?: string | null; severity?: Severity; snoozedUntil?: string | null; outcome?: CaseOutcome },
  ): Promise<void> {
    await tx.query(
      `UPDATE cases SET owner = CASE WHEN $4::boolean THEN $5 ELSE owner END, severity = coalesce($6, severity),
         snoozed_until = CASE WHEN $7::boolean THEN $8::timestamptz ELSE snoozed_until END, outcome = coalesce($9, outcome), updated_at = now()
       WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [
        t.accountId,
        t.environment,
        id,
        a.owner !== undefined,
        a.owner ?? null,
        a.severity ?? null,
        a.snoozedUntil !== undefined,
        a.snoozedUntil ?? null,
        a.outcome ?? null,
      ],
    );
  },

  /** A correction re-screened the session: its open review case follows the new reasons and severity. */
  async setReasons(
    tx: Queryable,
    t: Tenant,
    id: string,
    a: { reasonCode: string; reasonCodes: string[]; severity: Severity },
  ): Promise<void> {
    await tx.query(
      'UPDATE cases SET reason_code = $4, reason_codes = $5::text[], severity = $6, updated_at = now() WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, id, a.reasonCode, a.reasonCodes, a.severity],
    );
  },

  async transitionsOf(db: Queryable, t: Tenant, id: string): Promise<CaseTransitionRow[]> {
    return db.query<CaseTransitionRow>(
      'SELECT from_state, to_state, event, actor, at FROM case_transitions WHERE account_id = $1 AND environment = $2 AND case_id = $3 ORDER BY at, id',
      [t.accountId, t.environment, id],
    );
  },
};

/** An alert row (table alerts, migration 0022): one signal of any pillar, attached to an alert_review case. */
export interface AlertRow {
  id: string;
  account_id: string;
  environment: string;
  kind: string;
  severity: Severity;
  state: 'open' | 'closed';
  subject_type: string;
  subject_id: string;
  subject_reference: string | null;
  title: string;
  details: Record<string, unknown>;
  dedupe_key: string;
  case_id: string;
  occurrences: number;
  last_seen_at: Date;
  created_at: Date;
  closed_at: Date | null;
}

export const alertRows = {
  /**
   * Serialises the alerts of one subject until the transaction ends (dedupe and case opening are
   * read-then-write): a transaction-scoped advisory lock on the subject's key, on PostgreSQL and PGlite.
   */
  async lockSubject(tx: Queryable, t: Tenant, subjectType: string, subjectId: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [
      JSON.stringify(['alerts', t.accountId, t.environment, subjectType, subjectId]),
    ]);
  },

  /**
   * A repeat within the cooldown, in one statement: the latest alert of this (kind, subject, dedupe key)
   * created at or after `since` is counted (occurrences, last_seen_at) and returned; null when there is none.
   * Run under lockSubject (a separate, earlier statement: a statement reads from a snapshot taken when it
   * starts, so a lock taken inside it would not show alerts committed while it waited).
   */
  async touchRecent(
    tx: Queryable,
    t: Tenant,
    a: { kind: string; subjectType: string; subjectId: string; dedupeKey: string; since: Date },
  ): Promise<AlertRow | null> {
    const rows = await tx.query<AlertRow>(
      // The row is found by the tenant-scoped subquery and updated by its primary key alone: with the tenant's
      // columns in the outer WHERE too, a generic plan or stale statistics could take an index on those columns
      // and filter every alert of the tenant for the id (issue 13: 294 alerts, 316 pages per repeat).
      `UPDATE alerts SET occurrences = occurrences + 1, last_seen_at = now()
       WHERE id = (
         SELECT id FROM alerts WHERE account_id = $1 AND environment = $2 AND kind = $3 AND subject_type = $4 AND subject_id = $5
           AND dedupe_key = $6 AND created_at >= $7::timestamptz ORDER BY created_at DESC, id DESC LIMIT 1)
       RETURNING *`,
      [t.accountId, t.environment, a.kind, a.subjectType, a.subjectId, a.dedupeKey, a.since.toISOString()],
    );
    return rows[0] ?? null;
  },

  /**
   * A new alert and its case in one statement: the subject's open alert_review case (locked) gets the
   * alert's kind among its reasons and the alert's severity if higher, or a case is opened with `newCaseId`;
   * the alert is inserted on it, and a case it opens gets its first trail row (opened, by the caller: without
   * it the case screen showed an empty trail). Returns the alert, whether the case was opened, and the case's severity
   * before when this alert raised it (null otherwise). Run under lockSubject (one open case per subject).
   * The open case is updated by its primary key alone (it comes from the tenant-scoped lookup), so the plan
   * never walks the tenant's cases, whatever the statistics say (test/http/cases-alerts.test.ts).
   */
  async insertWithCase(
    tx: Queryable,
    t: Who,
    a: {
      id: string;
      kind: string;
      severity: Severity;
      subjectType: string;
      subjectId: string;
      subjectReference: string | null;
      title: string;
      details: Record<string, unknown>;
      dedupeKey: string;
      newCaseId: string;
    },
  ): Promise<{ alert: AlertRow; opened: boolean; raisedFrom: Severity | null }> {
    const rows = await tx.query<AlertRow & { case_opened: boolean; raised_from: Severity | null }>(
      `WITH open_case AS (
         SELECT id, severity FROM cases WHERE account_id = $2 AND environment = $3 AND subject_type = $6 AND subject_id = $7
           AND kind = 'alert_review' AND state <> 'closed' ORDER BY id DESC LIMIT 1 FOR UPDATE),
       new_case AS (
         INSERT INTO cases (id, account_id, environment, kind, state, severity, reason_code, reason_codes, subject_type, subject_id)
         SELECT $12, $2, $3, 'alert_review', 'open', $5, $4, ARRAY[$4]::text[], $6, $7 WHERE NOT EXISTS (SELECT 1 FROM open_case)
         RETURNING id),
       new_case_trail AS (
         INSERT INTO case_transitions (case_id, account_id, environment, from_state, to_state, event, actor, request_id)
         SELECT id, $2, $3, NULL, 'open', 'opened', $13, $14 FROM new_case),
       joined_case AS (
         UPDATE cases c SET reason_codes = CASE WHEN $4 = ANY(c.reason_codes) THEN c.reason_codes ELSE c.reason_codes || $4::text END,
           severity = CASE WHEN array_position(${SEVERITY_ORDER}, $5) > array_position(${SEVERITY_ORDER}, c.severity) THEN $5 ELSE c.severity END,
           updated_at = now()
         WHERE c.id = (SELECT id FROM open_case)
         RETURNING c.id, CASE WHEN c.severity <> (SELECT severity FROM open_case) THEN (SELECT severity FROM open_case) END AS raised_from),
       new_alert AS (
         INSERT INTO alerts (id, account_id, environment, kind, severity, subject_type, subject_id, subject_reference, title, details, dedupe_key, case_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, coalesce((SELECT id FROM open_case), $12))
         RETURNING *)
       SELECT new_alert.*, EXISTS (SELECT 1 FROM new_case) AS case_opened, (SELECT raised_from FROM joined_case) AS raised_from FROM new_alert`,
      [
        a.id,
        t.accountId,
        t.environment,
        a.kind,
        a.severity,
        a.subjectType,
        a.subjectId,
        a.subjectReference,
        a.title,
        JSON.stringify(a.details),
        a.dedupeKey,
        a.newCaseId,
        actorOf(t),
        t.requestId ?? null,
      ],
    );
    const { case_opened, raised_from, ...alert } = rows[0]!;
    return { alert: alert as AlertRow, opened: case_opened, raisedFrom: raised_from };
  },

  /** The case was closed: its open alerts close with it. */
  async closeOfCase(tx: Queryable, t: Tenant, caseId: string): Promise<number> {
    const rows = await tx.query<{ id: string }>(
      "UPDATE alerts SET state = 'closed', closed_at = now() WHERE account_id = $1 AND environment = $2 AND case_id = $3 AND state = 'open' RETURNING id",
      [t.accountId, t.environment, caseId],
    );
    return rows.length;
  },

  async get(db: Queryable, t: Tenant, id: string): Promise<AlertRow | null> {
    const rows = await db.query<AlertRow>('SELECT * FROM alerts WHERE account_id = $1 AND environment = $2 AND id = $3', [
      t.accountId,
      t.environment,
      id,
    ]);
    return rows[0] ?? null;
  },

  /** The latest CASE_ALERTS_SHOWN alerts of each case, newest first. */
  async ofCases(db: Queryable, t: Tenant, caseIds: readonly string[]): Promise<Map<string, AlertRow[]>> {
    const out = new Map<string, AlertRow[]>();
    if (caseIds.length === 0) return out;
    const rows = await db.query<AlertRow>(
      `SELECT * FROM (SELECT al.*, row_number() OVER (PARTITION BY case_id ORDER BY id DESC) AS rn FROM alerts al
         WHERE account_id = $1 AND environment = $2 AND case_id = ANY($3::text[])) x WHERE rn <= $4 ORDER BY case_id, id DESC`,
      [t.accountId, t.environment, caseIds, CASE_ALERTS_SHOWN],
    );
    for (const r of rows) {
      const list = out.get(r.case_id) ?? [];
      list.push(r);
      out.set(r.case_id, list);
    }
    return out;
  },

  async byIds(db: Queryable, t: Tenant, ids: readonly string[]): Promise<AlertRow[]> {
    if (ids.length === 0) return [];
    return db.query<AlertRow>('SELECT * FROM alerts WHERE account_id = $1 AND environment = $2 AND id = ANY($3::text[]) ORDER BY id', [
      t.accountId,
      t.environment,
      ids,
    ]);
  },
};
