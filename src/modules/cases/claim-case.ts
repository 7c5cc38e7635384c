import type { RequestContext } from '../../platform/context.js';
import { conflict, invalid } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { announceCaseChange } from './close-case.js';
import { alertRows, caseRows, toCase } from './repository.js';
import type { CaseClaim, ClaimCase } from './schemas.js';

/**
 * POST /v1/cases/claim ("claim next"): the most severe, then oldest, open case nobody owns (of the
 * kind and severity asked for) is given to the caller and taken into review, in one transaction with
 * its trail row, audit row and case.updated event. The row is taken with SKIP LOCKED, so concurrent
 * claims never get the same case. An operator claims for themself (owner operator:<id>); an API key
 * names the reviewer of its own tool in owner (default api_key:<id>). An empty queue is
 * `case: null`, not an error.
 */
export async function claimNextCase({ ctx, input }: { ctx: RequestContext; input: ClaimCase }): Promise<CaseClaim> {
  const self = `${ctx.actor.type}:${ctx.actor.id}`;
  if (ctx.actor.type === 'operator' && input.owner !== undefined && input.owner !== self)
    throw invalid('owner', 'An operator claims cases for themself; leave owner out.');
  const owner = input.owner ?? self;
  return withTransaction(ctx, async (tx) => {
    const id = await caseRows.lockNextUnclaimed(tx, ctx, { kind: input.kind, severity: input.severity });
    if (!id) return { object: 'case_claim' as const, case: null };
    const before = (await caseRows.get(tx, ctx, id))!;
    await caseRows.setAttributes(tx, ctx, id, { owner });
    await caseRows.applyTransition(tx, ctx, id, 'open', 'start_review');
    const after = (await caseRows.get(tx, ctx, id))!;
    await announceCaseChange(tx, ctx, before, after, { claimed: true });
    const alerts = await alertRows.ofCases(tx, ctx, [id]);
    return { object: 'case_claim' as const, case: toCase(after, await caseRows.transitionsOf(tx, ctx, id), alerts.get(id)) };
  });
}

/**
 * A claimed review is locked to its owner: another console operator can neither decide the session
 * nor correct its fields until the owner returns the case to the queue (PATCH state open) or an
 * admin reassigns it. API keys are not held back (an integrator's own tool keeps its own locks).
 */
export async function assertReviewOwner(tx: Parameters<typeof caseRows.get>[0], ctx: RequestContext, sessionId: string): Promise<void> {
  if (ctx.actor.type !== 'operator') return;
  const owner = await caseRows.reviewOwnerOfSession(tx, ctx, sessionId);
  const self = `${ctx.actor.type}:${ctx.actor.id}`;
  if (owner && owner !== self && !ctx.scopes.includes('*'))
    throw conflict(`The review of this session is claimed by ${owner}; it can act on it until it returns the case to the queue.`, 'owner');
}
