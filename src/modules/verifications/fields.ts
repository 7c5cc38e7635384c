import type { Queryable } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import type { SubjectFields } from '../checks/index.js';
import { sessions } from './repository.js';

/** Sealer purpose of `sessions.extracted_fields_sealed` (personal data). */
export const FIELDS_PURPOSE = 'session-fields';

export const sessionFields = {
  async read(
    db: Queryable,
    t: { accountId: string; environment: string },
    sealer: Sealer,
    sessionId: string,
  ): Promise<SubjectFields | null> {
    const sealed = await sessions.sealedFields(db, t, sessionId);
    return sealed ? (JSON.parse(sealer.open(FIELDS_PURPOSE, sealed)) as SubjectFields) : null;
  },
  async write(
    tx: Queryable,
    t: { accountId: string; environment: string },
    sealer: Sealer,
    sessionId: string,
    fields: SubjectFields,
  ): Promise<void> {
    await sessions.setSealedFields(tx, t, sessionId, sealSubjectFields(sealer, fields));
  },
};

/** The subject's fields as a session stores them (sealed), e.g. given at creation. */
export function sealSubjectFields(sealer: Sealer, fields: SubjectFields): string {
  return sealer.seal(FIELDS_PURPOSE, JSON.stringify(fields));
}
