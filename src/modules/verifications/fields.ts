import type { Queryable } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import type { SubjectFields } from '../checks/index.js';

/** Sealer purpose of `sessions.extracted_fields_sealed` (personal data). */
export const FIELDS_PURPOSE = 'session-fields';

export const sessionFields = {
  async read(
    db: Queryable,
    t: { accountId: string; environment: string },
    sealer: Sealer,
    sessionId: string,
  ): Promise<SubjectFields | null> {
    const rows = await db.query<{ extracted_fields_sealed: string | null }>(
      'SELECT extracted_fields_sealed FROM sessions WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, sessionId],
    );
    const sealed = rows[0]?.extracted_fields_sealed;
    return sealed ? (JSON.parse(sealer.open(FIELDS_PURPOSE, sealed)) as SubjectFields) : null;
  },
  async write(
    tx: Queryable,
    t: { accountId: string; environment: string },
    sealer: Sealer,
    sessionId: string,
    fields: SubjectFields,
  ): Promise<void> {
    await tx.query(
      'UPDATE sessions SET extracted_fields_sealed = $4, updated_at = now() WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, sessionId, sealer.seal(FIELDS_PURPOSE, JSON.stringify(fields))],
    );
  },
};
