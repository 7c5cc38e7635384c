import type { Queryable } from '../../platform/db.js';
import type { Actor, RequestContext } from '../../platform/context.js';
import { conflict } from '../../platform/errors.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import { transition, IllegalCaseTransition, type CaseEvent, type CaseState } from './state-machine.js';
import type { Severity } from './severity.js';
import type { Case, CaseKind, CasesQuery } from './schemas.js';

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
  /** From the session (null once deleted) or the alert. */
  subject_reference: string | null;
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

/** Cases with their subject reference, read from the session or the alert (so deletion needs no second copy). */
const VIEW = `(SELECT c.*, coalesce(s.subject_reference, a.subject_reference) AS subject_reference
  FROM cases c LEFT JOIN sessions s ON s.id = c.session_id LEFT JOIN monitoring_alerts a ON a.id = c.alert_id)`;

const actorOf = (w: Who) => (w.actor ? `${w.actor.type}:${w.actor.id}` : 'system:system');

export function toCase(r: CaseRow, trail?: CaseTransitionRow[]): Case {
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
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    closed_at: iso(r.closed_at),
    resolution: r.resolution,
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
}): [subjectType: string, subjectId: string] {
  return c.kind === 'screening_alert' ? ['monitoring_alert', c.alertId!] : ['verification', c.sessionId!];
}

export const caseRows = {
  /** Opens a case (state open) and writes its first trail row. */
  async open(
    tx: Queryable,
    w: Who,
    c: {
      id: string;
      kind: CaseKind;
      sessionId?: string | null;
      alertId?: string | null;
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
    return rows[0] ?? null;
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
    return tx.query<CaseRow>(`SELECT * FROM ${VIEW} x WHERE account_id = $1 AND environment = $2 AND id = ANY($3::text[]) ORDER BY id`, [
      t.accountId,
      t.environment,
      locked.map((r) => r.id),
    ]);
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
    if (q.kind) add('kind = ?', q.kind);
    if (q.owner === 'none') where.push('owner IS NULL');
    else if (q.owner) add('owner = ?', q.owner);
    if (q.severity) add('severity = ?', q.severity);
    if (q.verification_id) add('session_id = ?', q.verification_id);
    if (q.created_gte) add('created_at >= ?::timestamptz', q.created_gte);
    if (q.created_lt) add('created_at < ?::timestamptz', q.created_lt);
    return paginate<CaseRow & Record<string, unknown>>(db, t, {
      from: `${VIEW} x`,
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'cases',
    });
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

  /** Owner and severity (not state: that is applyTransition's alone). */
  async setAttributes(tx: Queryable, t: Tenant, id: string, a: { owner?: string | null; severity?: Severity }): Promise<void> {
    await tx.query(
      `UPDATE cases SET owner = CASE WHEN $4::boolean THEN $5 ELSE owner END, severity = coalesce($6, severity), updated_at = now()
       WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [t.accountId, t.environment, id, a.owner !== undefined, a.owner ?? null, a.severity ?? null],
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
      'SELECT from_state, to_state, event, actor, at FROM case_transitions WHERE account_id = $1 AND environment = $2 AND case_id = $3 ORDER BY id',
      [t.accountId, t.environment, id],
    );
  },
};
