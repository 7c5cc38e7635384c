import type { Queryable } from '../../../platform/db.js';
import type { Sealer } from '../../../platform/crypto.js';
import { notFound } from '../../../platform/errors.js';
import { iso } from '../../../platform/schemas.js';
import { corrections } from './corrections.js';
import { sessionFields } from '../fields.js';
import { sessions, toVerification, type Tenant } from '../repository.js';
import type { Verification } from '../schemas.js';
import type { SessionState } from '../state-machine.js';

/**
 * GET /v1/verifications/{id} (and the PATCH response): the session with its checks, transition
 * trail, extracted fields and reviewer corrections. The fields and the corrections' values are the
 * tenant's own personal data, shown to its keys with verifications:read; both are gone once the
 * session was deleted.
 */
export async function loadVerificationDetail(
  db: Queryable,
  t: Tenant,
  sealer: Sealer,
  id: string,
  hostedBaseUrl: string,
): Promise<Verification> {
  const s = await sessions.get(db, t, id);
  if (!s) throw notFound('verification', 'id');
  const trail = await sessions.transitionsOf(db, t, s.id);
  return {
    ...toVerification(s, (await sessions.checksOf(db, [s.id])).get(s.id) ?? [], hostedBaseUrl),
    transitions: trail.map((x) => ({
      from: x.from_status as SessionState,
      to: x.to_status as SessionState,
      event: x.event,
      actor: `${x.actor_type}:${x.actor_id}`,
      at: iso(x.at)!,
    })),
    fields: await sessionFields.read(db, t, sealer, s.id),
    corrections: await corrections.ofSession(db, t, sealer, s.id),
  };
}
