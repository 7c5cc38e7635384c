import type { Queryable } from '../../../platform/db.js';
import type { Sealer } from '../../../platform/crypto.js';
import { RESULT_PURPOSE, sessionChecks, type CheckPayload, type CheckOutcome } from '../../checks/index.js';
import type { DecisionResult } from '../../journeys/index.js';
import type { Tenant } from '../repository.js';
import type { Correction } from './schemas.js';

/** Writes of a correction's re-screening, beside the session repository (which they do not change). */
export interface CorrectionRow {
  id: string;
  actor: string;
  reason: string;
  fields: string[];
  changes_sealed: string | null;
  rescreening: Correction['rescreening'];
  created_at: Date;
}

export const correctionRepo = {
  /** One correction; its values arrive sealed (corrections.ts seals them with their salt). */
  async insert(
    tx: Queryable,
    t: Tenant,
    c: {
      id: string;
      sessionId: string;
      actor: string;
      reason: string;
      fields: string[];
      changesSealed: string;
      rescreening: Correction['rescreening'];
    },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO session_corrections (id, session_id, account_id, environment, actor, reason, fields, changes_sealed, rescreening)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9::jsonb)`,
      [
        c.id,
        c.sessionId,
        t.accountId,
        t.environment,
        c.actor,
        c.reason,
        c.fields,
        c.changesSealed,
        c.rescreening ? JSON.stringify(c.rescreening) : null,
      ],
    );
  },

  /** A session's corrections, oldest first. */
  async ofSession(db: Queryable, t: Tenant, sessionId: string): Promise<CorrectionRow[]> {
    return db.query<CorrectionRow>(
      'SELECT id, actor, reason, fields, changes_sealed, rescreening, created_at FROM session_corrections WHERE account_id = $1 AND environment = $2 AND session_id = $3 ORDER BY id',
      [t.accountId, t.environment, sessionId],
    );
  },

  /** Erasure: corrections keep who, when, why and which fields; their values go with the rest. */
  async eraseValues(tx: Queryable, t: Tenant, sessionId: string): Promise<void> {
    await tx.query(
      'UPDATE session_corrections SET changes_sealed = NULL WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND changes_sealed IS NOT NULL',
      [t.accountId, t.environment, sessionId],
    );
  },
  /** The session's sanctions_pep check takes the re-run's status, score and sealed result. */
  async storeScreening(tx: Queryable, t: Tenant, sealer: Sealer, sessionId: string, o: CheckOutcome): Promise<void> {
    const payload: CheckPayload = { reasons: o.reasons, signals: o.signals, model: o.model, timings: o.timings, result: o.result };
    await sessionChecks.storeResult(tx, t, sessionId, 'sanctions_pep', {
      status: o.status,
      score: o.score,
      resultSealed: sealer.seal(RESULT_PURPOSE, JSON.stringify(payload)),
    });
  },

  /** Risk, reason codes and the risk_score check follow the new outcomes; status and decision stay (referred). */
  async storeRisk(tx: Queryable, t: Tenant, sessionId: string, d: DecisionResult): Promise<void> {
    await tx.query(
      'UPDATE sessions SET risk_score = $4, risk_band = $5, reason_codes = $6::text[], updated_at = now() WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, sessionId, d.risk.score, d.risk.band, d.reason_codes],
    );
    const risk = d.checks.find((c) => c.type === 'risk_score');
    if (risk) await sessionChecks.setStatus(tx, t, sessionId, 'risk_score', risk.status, false);
  },
};
