// A business's person (a UBO, an officer, any natural person of its ownership graph) sent through a KYC
// verification session of the verifications module: the session is created with the person's registered
// name, and the link (business, node, session) is written in the session's own transaction. The business
// record and its UBO list show each person's latest session and its status.

import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, notFound } from '../../platform/errors.js';
import { createVerification, sessions } from './deps.js';
import { loadBusiness } from './get.js';
import { businessPersonVerifications } from './repository.js';
import type { PersonVerificationStatus, VerifyPerson } from './schemas.js';

const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'sir', 'dame', 'lord', 'lady', 'prof']);

/** A registered name as given names and surname: "BLOGGS, Joe" (Companies House officers) or "Mr Joe Bloggs". */
export function splitName(name: string): { given_names?: string; surname?: string } {
  const comma = name.indexOf(',');
  if (comma > 0) {
    const surname = name.slice(0, comma).trim();
    const given = name.slice(comma + 1).trim();
    return { ...(given ? { given_names: given } : {}), ...(surname ? { surname } : {}) };
  }
  const words = name.split(/\s+/).filter(Boolean);
  while (words.length > 1 && TITLES.has(words[0]!.toLowerCase().replace(/\.$/, ''))) words.shift();
  if (words.length === 0) return {};
  if (words.length === 1) return { surname: words[0]! };
  return { given_names: words.slice(0, -1).join(' '), surname: words.at(-1)! };
}

export async function verifyBusinessPerson(
  ctx: RequestContext,
  deps: { sealer: Sealer; hostedBaseUrl: string },
  businessId: string,
  nodeId: string,
  input: VerifyPerson,
) {
  const { row, loaded } = await loadBusiness(ctx, businessId);
  const node = loaded?.graph.nodes.get(nodeId);
  const person = loaded?.persons.get(nodeId)?.data;
  if (!node || node.kind !== 'person' || !person) throw notFound('person of this business', 'node_id');
  if (person.personType !== 'knownPerson' || !person.name)
    throw conflict('The register does not identify this person (anonymous or unknown); there is no one to verify.', 'node_id');
  const reference = input.subject_reference ?? `${row.reference ?? row.id}:${nodeId}`.slice(0, 200);
  return createVerification({
    ctx,
    sealer: deps.sealer,
    hostedBaseUrl: deps.hostedBaseUrl,
    input: {
      journey: input.journey,
      subject: { type: 'individual', reference, ...splitName(person.name) },
      ...(input.redirect_url ? { redirect_url: input.redirect_url } : {}),
    },
    within: async (tx, sessionId) => {
      await businessPersonVerifications.insert(tx, ctx, row.id, nodeId, sessionId);
      await emitAudit(tx, ctx, {
        action: 'business.person_verification_created',
        resourceType: 'business',
        resourceId: row.id,
        metadata: { node_id: nodeId, verification_id: sessionId },
      });
    },
  });
}

/** Each person's latest verification session of this business, with its current status and decision. */
export async function personVerificationStatuses(ctx: RequestContext, businessId: string): Promise<Map<string, PersonVerificationStatus>> {
  const out = new Map<string, PersonVerificationStatus>();
  for (const link of await businessPersonVerifications.latest(ctx.db, ctx, businessId)) {
    const s = await sessions.get(ctx.db, ctx, link.session_id);
    if (!s) continue;
    out.set(link.node_id, { id: s.id, status: s.effective_status, decision: s.decision ?? null, created_at: s.created_at.toISOString() });
  }
  return out;
}
