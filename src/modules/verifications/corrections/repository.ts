import type { Queryable } from '../../../platform/db.js';
import type { Sealer } from '../../../platform/crypto.js';
import { RESULT_PURPOSE, type CheckPayload, type CheckOutcome } from '../../checks/index.js';
import type { DecisionResult } from '../../journeys/index.js';
import type { Tenant } from '../repository.js';

/** Writes of a correction's re-screening, beside the session repository (which they do not change). */
export const correctionRepo = {
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
    await tx.query(
      `UPDATE checks SET status = $4, score = $5, result_sealed = $6, completed_at = now()
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND type = 'sanctions_pep'`,
      [t.accountId, t.environment, sessionId, o.status, o.score, sealer.seal(RESULT_PURPOSE, JSON.stringify(payload))],
    );
  },

  /** Risk, reason codes and the risk_score check follow the new outcomes; status and decision stay (referred). */
  async storeRisk(tx: Queryable, t: Tenant, sessionId: string, d: DecisionResult): Promise<void> {
    await tx.query(
      'UPDATE sessions SET risk_score = $4, risk_band = $5, reason_codes = $6::text[], updated_at = now() WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, sessionId, d.risk.score, d.risk.band, d.reason_codes],
    );
    const risk = d.checks.find((c) => c.type === 'risk_score');
    if (risk) {
      await tx.query(
        "UPDATE checks SET status = $4 WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND type = 'risk_score'",
        [t.accountId, t.environment, sessionId, risk.status],
      );
    }
  },
};
