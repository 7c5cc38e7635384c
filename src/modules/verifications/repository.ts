import { writeWithNext, type Queryable } from '../../platform/db.js';
import type { Actor, RequestContext } from '../../platform/context.js';
import { conflict } from '../../platform/errors.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import { journeys, stillPublishedOrRaise, type JourneyDefinition, type JourneyRuleTrail } from '../journeys/index.js';
import { checks, sessionChecks, type SessionCheckRow } from '../checks/index.js';
import { transition, IllegalTransition, WAITING_STATES, type SessionEvent, type SessionState } from './state-machine.js';
import type { Verification, VerificationsQuery } from './schemas.js';

export type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;
type Who = { actor: Actor; requestId?: string | null };

export interface SessionRow {
  id: string;
  account_id: string;
  environment: string;
  journey_key: string;
  journey_version: number;
  /** The pinned journey definition; in the table null for sessions created on a stored version (withDefinitions fills it). */
  definition: JourneyDefinition;
  status: SessionState;
  subject_type: string;
  subject_reference: string | null;
  deleted_at?: Date | null;
  subject_country: string | null;
  redirect_url: string | null;
  expires_at: Date;
  token_expires_at: Date;
  capture_started_at: Date | null;
  decision: 'approved' | 'declined' | 'referred' | null;
  risk_score: number | null;
  risk_band: 'low' | 'medium' | 'high' | null;
  reason_codes: string[];
  decided_by: string | null;
  decided_reason: string | null;
  decided_at: Date | null;
  sandbox_outcome: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  /** Migration 0012: native sessions, or historical ones imported from a previous provider. */
  origin?: 'native' | 'import';
  import_provider?: string | null;
  import_external_id?: string | null;
  import_journey?: string | null;
  /** Migration 0034: the active liveness challenge the capture asked for (null until requested). */
  liveness_challenge?: LivenessChallenge | null;
  /** Migration 0035: the journey rules' trail of the system decision (null without journey rules). */
  rule_trail?: JourneyRuleTrail[] | null;
}

/** The actions asked of the subject, in order, and when (the frames must follow within the challenge's lifetime). */
export interface LivenessChallenge {
  id: string;
  actions: string[];
  issued_at: string;
}
/** A session's check as the session shows it (the checks kernel owns the rows). */
export type { SessionCheckRow } from '../checks/index.js';

/**
 * What a reader sees: a waiting session whose expires_at has passed reads as expired (nothing
 * captured) or abandoned (capture started), exactly from expires_at, before the expiry job persists it.
 */
const EFFECTIVE = `(SELECT s.*, CASE WHEN s.status IN ('created', 'awaiting_subject') AND s.expires_at <= now()
    THEN CASE WHEN s.capture_started_at IS NULL THEN 'expired' ELSE 'abandoned' END ELSE s.status END AS effective_status
  FROM sessions s)`;

export function evidenceUrl(id: string): string {
  return `/v1/verifications/${id}/evidence`;
}

export function toVerification(
  s: Omit<SessionRow, 'definition'> & { effective_status?: SessionState },
  checks: SessionCheckRow[],
  hostedBaseUrl: string,
): Verification {
  return {
    id: s.id,
    object: 'verification',
    status: s.effective_status ?? s.status,
    journey: s.journey_key,
    journey_version: s.journey_version,
    hosted_url: `${hostedBaseUrl}/s/${s.id}`,
    expires_at: iso(s.expires_at)!,
    checks: checks.map((c) => ({ type: c.type, status: c.status as Verification['checks'][number]['status'], id: c.id })),
    subject: { type: s.subject_type, reference: s.subject_reference, country: s.subject_country },
    redirect_url: s.redirect_url,
    decision: s.decision,
    risk: s.risk_score === null || s.risk_band === null ? null : { score: s.risk_score, band: s.risk_band },
    reason_codes: s.reason_codes ?? [],
    sandbox_outcome: s.sandbox_outcome,
    created_at: iso(s.created_at)!,
    updated_at: iso(s.updated_at)!,
    completed_at: iso(s.completed_at),
    deleted_at: iso(s.deleted_at ?? null),
    origin: s.origin ?? 'native',
    imported_from:
      s.origin === 'import'
        ? { provider: s.import_provider!, external_id: s.import_external_id!, journey: s.import_journey ?? null }
        : null,
  };
}

/**
 * Rows of `sessions` with the pinned definition in place: a session created on a stored journey version holds no
 * copy of it (`definition` is null, migration 0051) and gets it from the journeys module (remembered per process).
 */
async function withDefinitions<R extends Pick<SessionRow, 'account_id' | 'environment' | 'journey_key' | 'journey_version' | 'definition'>>(
  db: Queryable,
  rows: R[],
): Promise<R[]> {
  for (const r of rows) {
    if (r.definition !== null) continue;
    const t = { accountId: r.account_id, environment: r.environment as Tenant['environment'] };
    const d = await journeys.pinnedDefinition(db, t, r.journey_key, Number(r.journey_version));
    // The insert's guard made sure the version existed and journeys are never deleted: a miss is corruption.
    if (d === null) throw new Error(`session pinned to journey ${r.journey_key} version ${r.journey_version}, which does not exist`);
    r.definition = d;
  }
  return rows;
}

export const sessions = {
  /**
   * Inserts a new session already moved by its first event (`created` → the state machine's answer to `event`),
   * with that transition's trail row, in one statement: both happen in the creating transaction, so nobody ever
   * sees the session in `created`. The subject's fields, when given at creation, are stored sealed with it.
   * `created_at` and `updated_at` are the request's clock, written with the row, so nothing is read back: the row
   * is what was written plus the columns' defaults (a test holds it equal to the stored row). Where the transaction
   * can hold a statement back (`sendWithNext`), the INSERT travels with its next message (for a session's creation,
   * the one that stores the response and commits), and a failure of the INSERT fails that message.
   */
  async insert(
    tx: Queryable,
    t: Tenant & Who,
    s: {
      id: string;
      journeyKey: string;
      journeyVersion: number;
      definition: JourneyDefinition;
      subjectType: string;
      subjectReference: string;
      subjectCountry: string | null;
      redirectUrl: string | null;
      expiresAt: Date;
      tokenHash: string;
      tokenExpiresAt: Date;
      sandboxOutcome: string | null;
      fieldsSealed: string | null;
    },
    event: SessionEvent,
    /**
     * Insert only while `journeyVersion` is still the journey's published version (a cached read): if it is not,
     * the statement raises (`isJourneyStale`) and the transaction rolls back.
     */
    opts: { ifStillPublished?: boolean } = {},
  ): Promise<SessionRow> {
    const to = transition('created', event);
    const now = new Date();
    // `definition` is left NULL (the stored version's, see withDefinitions). Every `$n` is used: a parameter the
    // text never names cannot be typed by PREPARE, and the statement would be parsed at every creation.
    const sql = `WITH s AS (
         INSERT INTO sessions (id, account_id, environment, journey_key, journey_version, status, subject_type, subject_reference, subject_country, redirect_url, expires_at, token_hash, token_expires_at, sandbox_outcome, extracted_fields_sealed, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5, $15, $6, $7, $8, $9, $10, $11, $12, $13, $14, $20, $20${opts.ifStillPublished ? ` WHERE ${stillPublishedOrRaise('$2', '$3', '$4', '$5')}` : ''}
         RETURNING id)
       INSERT INTO session_transitions (session_id, account_id, environment, from_status, to_status, event, actor_type, actor_id, request_id)
       SELECT id, $2, $3, 'created', $15, $16, $17, $18, $19 FROM s`;
    const params = [
      s.id,
      t.accountId,
      t.environment,
      s.journeyKey,
      s.journeyVersion,
      s.subjectType,
      s.subjectReference,
      s.subjectCountry,
      s.redirectUrl,
      s.expiresAt,
      s.tokenHash,
      s.tokenExpiresAt,
      s.sandboxOutcome,
      s.fieldsSealed,
      to,
      event,
      t.actor.type,
      t.actor.id,
      t.requestId ?? null,
      now,
    ];
    await writeWithNext(tx, sql, params);
    return {
      id: s.id,
      account_id: t.accountId,
      environment: t.environment,
      journey_key: s.journeyKey,
      journey_version: s.journeyVersion,
      definition: s.definition,
      status: to,
      subject_type: s.subjectType,
      subject_reference: s.subjectReference,
      deleted_at: null,
      subject_country: s.subjectCountry,
      redirect_url: s.redirectUrl,
      expires_at: s.expiresAt,
      token_expires_at: s.tokenExpiresAt,
      capture_started_at: null,
      decision: null,
      risk_score: null,
      risk_band: null,
      reason_codes: [],
      decided_by: null,
      decided_reason: null,
      decided_at: null,
      sandbox_outcome: s.sandboxOutcome,
      created_at: now,
      updated_at: now,
      completed_at: null,
      origin: 'native',
      import_provider: null,
      import_external_id: null,
      import_journey: null,
      liveness_challenge: null,
      rule_trail: null,
    };
  },

  /** The session as a reader sees it (effective_status applies expiry at the boundary). */
  /** The subject reference of each of these sessions that still has one (a review case's subject). */
  async subjectReferences(db: Queryable, t: Tenant, ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await db.query<{ id: string; subject_reference: string | null }>(
      'SELECT id, subject_reference FROM sessions WHERE account_id = $1 AND environment = $2 AND id = ANY($3::text[])',
      [t.accountId, t.environment, ids],
    );
    return new Map(rows.filter((r) => r.subject_reference !== null).map((r) => [r.id, r.subject_reference!]));
  },
  async get(db: Queryable, t: Tenant, id: string): Promise<(SessionRow & { effective_status: SessionState }) | null> {
    const rows = await db.query<SessionRow & { effective_status: SessionState }>(
      `SELECT * FROM ${EFFECTIVE} x WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [t.accountId, t.environment, id],
    );
    return (await withDefinitions(db, rows))[0] ?? null;
  },

  /** Locks the session row for a multi-step change (decision recording). */
  async expiresAt(db: Queryable, id: string): Promise<Date> {
    const [r] = await db.query<{ expires_at: Date }>('SELECT expires_at FROM sessions WHERE id = $1', [id]);
    return r!.expires_at;
  },
  /** Erasure keeps a tombstone: status, timestamps, decision, risk and reason codes stay; personal fields go. */
  async eraseSubject(tx: Queryable, t: Tenant, id: string): Promise<SessionRow & { deleted_at: Date | null }> {
    const [r] = await tx.query<SessionRow & { deleted_at: Date | null }>(
      `UPDATE sessions SET subject_reference = NULL, subject_country = NULL, redirect_url = NULL, decided_reason = NULL, extracted_fields_sealed = NULL, rule_trail = NULL, deleted_at = now(), updated_at = now()
       WHERE account_id = $1 AND environment = $2 AND id = $3 RETURNING *`,
      [t.accountId, t.environment, id],
    );
    return r!;
  },
  /**
   * What verification knows of a subject reference (the KYT rule context's `subject`): the latest
   * decided session (decision, risk band, country, type) and when the reference was first seen.
   */
  async standingOf(
    db: Queryable,
    t: Tenant,
    subjectReference: string,
  ): Promise<{
    decision: string | null;
    risk_band: string | null;
    subject_country: string | null;
    subject_type: string | null;
    session_id: string | null;
    first_seen: Date | null;
  }> {
    const [r] = await db.query<{
      decision: string | null;
      risk_band: string | null;
      subject_country: string | null;
      subject_type: string | null;
      session_id: string | null;
      first_seen: Date | null;
    }>(
      `SELECT d.decision, d.risk_band, d.subject_country, d.subject_type, d.id AS session_id, f.first_seen
       FROM (SELECT min(created_at) AS first_seen FROM sessions WHERE account_id = $1 AND environment = $2 AND subject_reference = $3) f
       LEFT JOIN LATERAL (
         SELECT id, decision, risk_band, subject_country, subject_type FROM sessions
         WHERE account_id = $1 AND environment = $2 AND subject_reference = $3 AND decision IS NOT NULL
         ORDER BY decided_at DESC NULLS LAST, id DESC LIMIT 1) d ON true`,
      [t.accountId, t.environment, subjectReference],
    );
    return r!;
  },
  /** Stores (or replaces) the session's liveness challenge. */
  async setChallenge(tx: Queryable, t: Tenant, id: string, challenge: LivenessChallenge): Promise<void> {
    await tx.query(
      'UPDATE sessions SET liveness_challenge = $4::jsonb, updated_at = now() WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, id, JSON.stringify(challenge)],
    );
  },

  async lock(tx: Queryable, t: Tenant, id: string): Promise<SessionRow | null> {
    const rows = await tx.query<SessionRow>('SELECT * FROM sessions WHERE account_id = $1 AND environment = $2 AND id = $3 FOR UPDATE', [
      t.accountId,
      t.environment,
      id,
    ]);
    return (await withDefinitions(tx, rows))[0] ?? null;
  },

  /** What the sandbox walker reads between its steps. */
  async sandboxState(
    db: Queryable,
    t: Tenant,
    id: string,
  ): Promise<{
    status: SessionState;
    capture_started_at: Date | null;
    sandbox_outcome: string | null;
    definition: JourneyDefinition;
  } | null> {
    const rows = await db.query<{
      status: SessionState;
      capture_started_at: Date | null;
      sandbox_outcome: string | null;
      definition: JourneyDefinition;
      account_id: string;
      environment: string;
      journey_key: string;
      journey_version: number;
    }>(
      `SELECT status, capture_started_at, sandbox_outcome, definition, account_id, environment, journey_key, journey_version
       FROM sessions WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [t.accountId, t.environment, id],
    );
    const [row] = await withDefinitions(db, rows);
    return row
      ? { status: row.status, capture_started_at: row.capture_started_at, sandbox_outcome: row.sandbox_outcome, definition: row.definition }
      : null;
  },

  /**
   * Finished sessions past their account's retention period (accounts.retention_days, read from the
   * platform's table in the same statement: one indexed scan instead of a query per account), after
   * `after` in id order. A waiting session past its lifetime counts as finished.
   */
  async dueForRetention(
    db: Queryable,
    terminal: readonly string[],
    after: string,
    limit: number,
  ): Promise<{ id: string; account_id: string; environment: string }[]> {
    return db.query(
      `SELECT s.id, s.account_id, s.environment FROM sessions s JOIN accounts a ON a.id = s.account_id
       WHERE s.deleted_at IS NULL AND a.retention_days IS NOT NULL AND s.created_at < now() - make_interval(days => a.retention_days)
         AND (s.status = ANY($1::text[]) OR (s.status IN ('created', 'awaiting_subject') AND s.expires_at <= now()))
         AND s.id > $2
       ORDER BY s.id LIMIT $3`,
      [terminal, after, limit],
    );
  },

  /** The sessions' checks, in journey order (read from the checks kernel, which owns them). */
  checksOf(db: Queryable, sessionIds: string[]): Promise<Map<string, SessionCheckRow[]>> {
    return sessionChecks.ofSessions(db, sessionIds);
  },

  setCheckStatus(tx: Queryable, t: Tenant, sessionId: string, type: string, status: string, completed: boolean): Promise<void> {
    return sessionChecks.setStatus(tx, t, sessionId, type, status, completed);
  },

  /**
   * Decisions per UTC day and decision between two moments (decided_at): a range scan of the
   * sessions_decided index (migration 0036), at most one row per day and decision.
   */
  async decisionsPerDay(db: Queryable, t: Tenant, from: Date, to: Date) {
    return db.query<{ day: string; decision: 'approved' | 'declined' | 'referred'; n: number }>(
      `SELECT to_char(decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, decision, count(*)::int AS n
         FROM sessions WHERE account_id = $1 AND environment = $2 AND decided_at >= $3 AND decided_at < $4 AND decision IS NOT NULL
        GROUP BY 1, decision ORDER BY 1`,
      [t.accountId, t.environment, from, to],
    );
  },

  async page(db: Queryable, t: Tenant, q: VerificationsQuery) {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length + 2}`));
    };
    if (q.status) add('effective_status = ?', q.status);
    if (q.journey) add('journey_key = ?', q.journey);
    if (q.decision) add('decision = ?', q.decision);
    if (q.subject_reference) add('subject_reference = ?', q.subject_reference);
    if (q.origin) add('origin = ?', q.origin);
    if (q.created_gte) add('created_at >= ?::timestamptz', q.created_gte);
    if (q.created_lt) add('created_at < ?::timestamptz', q.created_lt);
    // The page's rows are not given their definitions (a listed session is shown without it).
    return paginate<Omit<SessionRow, 'definition'> & { effective_status: SessionState } & Record<string, unknown>>(db, t, {
      from: `${EFFECTIVE} x`,
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'verifications',
    });
  },

  /**
   * The only way a session's status changes: the state machine names the next state, the UPDATE
   * only applies if the session is still in `from` (a concurrent change makes it 409), a waiting
   * session past expires_at takes no event but its lifetime's end, and one transition row is written.
   */
  async applyTransition(
    tx: Queryable,
    t: Tenant & Who,
    sessionId: string,
    from: SessionState,
    event: SessionEvent,
    extra: { captureStarted?: boolean } = {},
  ): Promise<SessionState> {
    let to: SessionState;
    try {
      to = transition(from, event);
    } catch (err) {
      if (err instanceof IllegalTransition)
        throw conflict(`The session is ${from}; ${event.replace(/_/g, ' ')} is not possible in that status.`);
      throw err;
    }
    const lifetime = event === 'lifetime_elapsed' || event === 'lifetime_elapsed_after_capture';
    // One statement: the trail row is written only if the guarded UPDATE matched.
    const rows = await tx.query<{ id: string }>(
      `WITH moved AS (UPDATE sessions SET status = $4, updated_at = now(),
         capture_started_at = CASE WHEN $6::boolean THEN coalesce(capture_started_at, now()) ELSE capture_started_at END,
         expires_at = CASE WHEN $9::text IN ('cancelled', 'cancelled_after_capture') THEN least(expires_at, now()) ELSE expires_at END,
         completed_at = CASE WHEN $4::text IN ('approved', 'declined', 'abandoned', 'expired') THEN now() ELSE completed_at END
       WHERE account_id = $1 AND environment = $2 AND id = $3 AND status = $5
         AND ($7::boolean OR NOT (status = ANY($8::text[]) AND expires_at <= now()))
         AND (NOT $7::boolean OR expires_at <= now())
         AND ($9::text <> 'lifetime_elapsed' OR capture_started_at IS NULL)
         AND ($9::text <> 'lifetime_elapsed_after_capture' OR capture_started_at IS NOT NULL)
         AND ($9::text <> 'cancelled' OR capture_started_at IS NULL)
         AND ($9::text <> 'cancelled_after_capture' OR capture_started_at IS NOT NULL)
       RETURNING id)
       INSERT INTO session_transitions (session_id, account_id, environment, from_status, to_status, event, actor_type, actor_id, request_id)
       SELECT id, $1, $2, $5, $4, $9, $10, $11, $12 FROM moved
       RETURNING session_id AS id`,
      [
        t.accountId,
        t.environment,
        sessionId,
        to,
        from,
        extra.captureStarted === true || event === 'capture_started',
        lifetime,
        WAITING_STATES,
        event,
        t.actor.type,
        t.actor.id,
        t.requestId ?? null,
      ],
    );
    if (rows.length === 0) throw conflict(`The session is no longer ${from} (it changed or its lifetime ended); retrieve it and retry.`);
    // A session that ends without its checks having run leaves none of them pending for ever.
    if (to === 'expired' || to === 'abandoned') await checks.cancelUnfinished(tx, t, sessionId);
    return to;
  },

  async recordDecision(
    tx: Queryable,
    t: Tenant,
    sessionId: string,
    d: {
      decision: 'approved' | 'declined' | 'referred';
      score: number;
      band: string;
      reasonCodes: string[];
      decidedBy: string;
      reason: string | null;
      /** The journey rules' trail of a system decision; undefined keeps the stored one (a manual decision). */
      ruleTrail?: unknown[] | null;
    },
  ): Promise<void> {
    const keep = d.ruleTrail === undefined;
    await tx.query(
      `UPDATE sessions SET decision = $4, risk_score = $5, risk_band = $6, reason_codes = $7::text[], decided_by = $8, decided_reason = $9, decided_at = now(), updated_at = now(),
         rule_trail = CASE WHEN $10::boolean THEN rule_trail ELSE $11::jsonb END
       WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [
        t.accountId,
        t.environment,
        sessionId,
        d.decision,
        d.score,
        d.band,
        d.reasonCodes,
        d.decidedBy,
        d.reason,
        keep,
        keep || d.ruleTrail === null ? null : JSON.stringify(d.ruleTrail),
      ],
    );
  },

  /** Waiting sessions past expires_at, oldest first, for the expiry job (all tenants). */
  async dueForExpiry(db: Queryable, limit: number): Promise<SessionRow[]> {
    return withDefinitions(
      db,
      await db.query<SessionRow>(
        "SELECT * FROM sessions WHERE status IN ('created', 'awaiting_subject') AND expires_at <= now() ORDER BY expires_at LIMIT $1",
        [limit],
      ),
    );
  },

  async transitionsOf(db: Queryable, t: Tenant, sessionId: string) {
    return db.query<{ from_status: string; to_status: string; event: string; actor_type: string; actor_id: string; at: Date }>(
      'SELECT from_status, to_status, event, actor_type, actor_id, at FROM session_transitions WHERE account_id = $1 AND environment = $2 AND session_id = $3 ORDER BY id',
      [t.accountId, t.environment, sessionId],
    );
  },

  /** The sealed extracted fields of a session (verifications/fields.ts opens them). */
  async sealedFields(db: Queryable, t: { accountId: string; environment: string }, id: string): Promise<string | null> {
    const rows = await db.query<{ extracted_fields_sealed: string | null }>(
      'SELECT extracted_fields_sealed FROM sessions WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, id],
    );
    return rows[0]?.extracted_fields_sealed ?? null;
  },

  async setSealedFields(tx: Queryable, t: { accountId: string; environment: string }, id: string, sealed: string): Promise<void> {
    await tx.query(
      'UPDATE sessions SET extracted_fields_sealed = $4, updated_at = now() WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, id, sealed],
    );
  },

  /** The session a current capture token opens while it still waits on the subject (session-token.ts). */
  async waitingByTokenHash(
    db: Queryable,
    tokenHash: string,
  ): Promise<{ id: string; account_id: string; environment: 'sandbox' | 'production'; status: string } | null> {
    const rows = await db.query<{ id: string; account_id: string; environment: 'sandbox' | 'production'; status: string }>(
      `SELECT id, account_id, environment, status FROM sessions
       WHERE token_hash = $1 AND token_expires_at > now() AND expires_at > now() AND status IN ('created', 'awaiting_subject')`,
      [tokenHash],
    );
    return rows[0] ?? null;
  },

  /** The session a capture token belongs to, whatever its status, with the status a reader sees (session-token.ts). */
  async byTokenHash(
    db: Queryable,
    tokenHash: string,
  ): Promise<{ id: string; account_id: string; environment: 'sandbox' | 'production'; status: string; token_expired: boolean } | null> {
    const rows = await db.query<{
      id: string;
      account_id: string;
      environment: 'sandbox' | 'production';
      status: string;
      token_expired: boolean;
    }>(
      `SELECT id, account_id, environment,
         CASE WHEN status IN ('created', 'awaiting_subject') AND expires_at <= now()
           THEN CASE WHEN capture_started_at IS NULL THEN 'expired' ELSE 'abandoned' END ELSE status END AS status,
         token_expires_at <= now() AS token_expired
       FROM sessions WHERE token_hash = $1 AND deleted_at IS NULL`,
      [tokenHash],
    );
    return rows[0] ?? null;
  },
};

// Review cases (open, close, the queue) live in src/modules/cases: openReviewCase, closeSessionCases.
