import { createHmac } from 'node:crypto';
import type { Queryable } from '../../../platform/db.js';
import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import type { VerificationState } from '../../../engines/contact/index.js';
import { RESULT_PURPOSE, type CheckPayload, type CheckRow, type CheckStatus } from '../kernel/index.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;
const STATE_PURPOSE = 'contact-verification';

/** Keys derived from MASTER_KEY with a purpose label, so neither is a constant nor reused elsewhere. */
export function contactSecrets(masterKey: Buffer): { otp: Buffer; destination: Buffer } {
  const derive = (label: string) => createHmac('sha256', masterKey).update(`verity:${label}`).digest();
  return { otp: derive('contact-otp'), destination: derive('contact-destination') };
}

export function destinationHash(key: Buffer, channel: string, normalized: string): string {
  return createHmac('sha256', key).update(`${channel}:${normalized}`).digest('hex');
}

export type VerificationRowStatus = 'sending' | VerificationState['status'];

export interface VerificationRow {
  id: string;
  channel: string;
  status: VerificationRowStatus;
  state_sealed: string;
  destination_hash: string;
}

export const verifications = {
  /** Serialises starts to one destination of a tenant, so concurrent starts cannot all pass the limits. */
  async lockDestination(tx: Queryable, t: Tenant, hash: string): Promise<void> {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('contact:' || $1 || ':' || $2 || ':' || $3, 0))", [
      t.accountId,
      t.environment,
      hash,
    ]);
  },
  async sendHistory(tx: Queryable, t: Tenant, hash: string, since: Date): Promise<Date[]> {
    const rows = await tx.query<{ sent_at: Date }>(
      'SELECT sent_at FROM contact_sends WHERE account_id = $1 AND environment = $2 AND destination_hash = $3 AND sent_at > $4 ORDER BY sent_at',
      [t.accountId, t.environment, hash, since],
    );
    return rows.map((r) => new Date(r.sent_at));
  },
  async insert(tx: Queryable, t: Tenant, sealer: Sealer, v: { id: string; hash: string; state: VerificationState }): Promise<void> {
    await tx.query(
      `INSERT INTO contact_verifications (id, account_id, environment, channel, destination_hash, status, state_sealed, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'sending', $6, $7)`,
      [v.id, t.accountId, t.environment, v.state.channel, v.hash, sealer.seal(STATE_PURPOSE, JSON.stringify(v.state)), v.state.expiresAt],
    );
  },
  async recordSend(tx: Queryable, t: Tenant, v: { id: string; hash: string; at: Date }): Promise<void> {
    await tx.query(
      'INSERT INTO contact_sends (account_id, environment, destination_hash, verification_id, sent_at) VALUES ($1, $2, $3, $4, $5)',
      [t.accountId, t.environment, v.hash, v.id, v.at],
    );
  },
  /** Undoes a reservation whose message never left: it must not count against the limits. */
  async forgetSend(tx: Queryable, t: Tenant, id: string, sentAt: Date): Promise<void> {
    await tx.query('DELETE FROM contact_sends WHERE account_id = $1 AND environment = $2 AND verification_id = $3 AND sent_at = $4', [
      t.accountId,
      t.environment,
      id,
      sentAt,
    ]);
  },
  async forgetReservation(tx: Queryable, t: Tenant, id: string, sentAt: Date): Promise<void> {
    await verifications.forgetSend(tx, t, id, sentAt);
    await tx.query("DELETE FROM contact_verifications WHERE account_id = $1 AND environment = $2 AND id = $3 AND status = 'sending'", [
      t.accountId,
      t.environment,
      id,
    ]);
  },
  async getForUpdate(tx: Queryable, t: Tenant, id: string): Promise<VerificationRow | null> {
    const rows = await tx.query<VerificationRow>(
      'SELECT id, channel, status, state_sealed, destination_hash FROM contact_verifications WHERE account_id = $1 AND environment = $2 AND id = $3 FOR UPDATE',
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },
  async update(tx: Queryable, t: Tenant, sealer: Sealer, id: string, state: VerificationState, providerMessageId?: string): Promise<void> {
    await tx.query(
      `UPDATE contact_verifications SET status = $4, state_sealed = $5, expires_at = $6, provider_message_id = COALESCE($7, provider_message_id), updated_at = now()
       WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [
        t.accountId,
        t.environment,
        id,
        state.status,
        sealer.seal(STATE_PURPOSE, JSON.stringify(state)),
        state.expiresAt,
        providerMessageId ?? null,
      ],
    );
  },
  open(sealer: Sealer, row: VerificationRow): VerificationState {
    return JSON.parse(sealer.open(STATE_PURPOSE, row.state_sealed)) as VerificationState;
  },
};

/**
 * Updates an existing check (recordCheck only inserts). The payload is sealed exactly as the checks
 * module seals it (same purpose), so GET /v1/checks/{id} reads it like any other check.
 */
export async function updateCheck(
  tx: Queryable,
  t: Tenant,
  sealer: Sealer,
  id: string,
  c: { status: CheckStatus; score: number | null; payload: CheckPayload; completed: boolean },
): Promise<CheckRow | null> {
  const rows = await tx.query<CheckRow>(
    `UPDATE checks SET status = $4, score = $5, result_sealed = $6, completed_at = CASE WHEN $7 THEN COALESCE(completed_at, now()) ELSE null END
     WHERE account_id = $1 AND environment = $2 AND id = $3 AND type = 'contact' RETURNING *`,
    [t.accountId, t.environment, id, c.status, c.score, sealer.seal(RESULT_PURPOSE, JSON.stringify(c.payload)), c.completed],
  );
  return rows[0] ?? null;
}

export async function getCheckForUpdate(tx: Queryable, t: Tenant, id: string): Promise<CheckRow | null> {
  const rows = await tx.query<CheckRow>(
    "SELECT * FROM checks WHERE account_id = $1 AND environment = $2 AND id = $3 AND type = 'contact' FOR UPDATE",
    [t.accountId, t.environment, id],
  );
  return rows[0] ?? null;
}

/**
 * Hourly maintenance: send history older than the longest limit window (a day, kept two) is no longer
 * needed; a reservation still 'sending' after a day was cut off by a crash between send and settle.
 */
export async function purgeContactHistory(db: Queryable): Promise<void> {
  await db.query("DELETE FROM contact_sends WHERE sent_at < now() - interval '2 days'");
  await db.query("DELETE FROM contact_verifications WHERE status = 'sending' AND created_at < now() - interval '1 day'");
}
