import type { RequestContext } from '../../platform/context.js';
import { caseSubjectsClosed } from './subject-sources.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { announceCaseChange } from './close-case.js';
import { alertRows, caseRows, toCase } from './repository.js';
import type { Case, UpdateCase } from './schemas.js';
import { reviewerEvent } from './state-machine.js';

const MAX_SNOOZE_MS = 90 * 24 * 3600 * 1000;

/**
 * PATCH /v1/cases/{id}: assign or unassign, change severity, snooze or wake, and move the state (take into review,
 * back to the queue, close with a resolution and an outcome) in one transaction with its trail row, audit row and
 * case.updated event. A closed case is final (409). A verification review case is never closed
 * here: it closes with the session's decision (POST /v1/verifications/{id}/decision), so a referred
 * session can never sit without a case in the queue; closing a screening alert case also closes the alert.
 */
export async function updateCase({ ctx, id, input }: { ctx: RequestContext; id: string; input: UpdateCase }): Promise<Case> {
  return withTransaction(ctx, async (tx) => {
    const before = await caseRows.lock(tx, ctx, id);
    if (!before) throw notFound('case', 'id');
    if (before.state === 'closed') throw conflict('The case is closed; a closed case is final.', 'state');
    const target = input.state ?? before.state;
    if (input.resolution !== undefined && target !== 'closed')
      throw invalid('resolution', 'A resolution is given only when closing the case (state closed).');
    if (target === 'closed') {
      if (before.kind === 'verification_review') {
        throw conflict(
          `A verification review case closes with its session's decision: POST /v1/verifications/${before.session_id}/decision (or DELETE the session).`,
          'state',
        );
      }
      if (!input.resolution) throw invalid('resolution', 'Closing a case needs a resolution: how it was resolved.');
    }
    if (input.outcome !== undefined && target !== 'closed')
      throw invalid('outcome', 'An outcome is given only when closing the case (state closed).');
    const snoozedUntil = target === 'closed' ? (before.snoozed_until ? null : undefined) : input.snoozed_until;
    if (input.snoozed_until) {
      const at = Date.parse(input.snoozed_until);
      if (target === 'closed') throw invalid('snoozed_until', 'A closed case cannot be snoozed.');
      if (!(at > Date.now())) throw invalid('snoozed_until', 'snoozed_until must be in the future (null wakes the case).');
      if (at > Date.now() + MAX_SNOOZE_MS) throw invalid('snoozed_until', 'A case is snoozed for at most 90 days.');
    }
    const owner = input.owner !== undefined ? input.owner : before.owner;
    if (target === 'in_review' && !owner) throw invalid('owner', 'A case in review needs an owner: set owner in the same request.');
    if (target !== before.state && !reviewerEvent(before.state, target))
      throw conflict(`The case is ${before.state}; it cannot move to ${target}.`, 'state');

    if (input.owner !== undefined || input.severity !== undefined || snoozedUntil !== undefined || input.outcome !== undefined)
      await caseRows.setAttributes(tx, ctx, id, { owner: input.owner, severity: input.severity, snoozedUntil, outcome: input.outcome });
    if (target !== before.state)
      await caseRows.applyTransition(tx, ctx, id, before.state, reviewerEvent(before.state, target)!, input.resolution ?? null);
    if (target === 'closed') await caseSubjectsClosed(tx, ctx, before);
    if (target === 'closed' && before.kind === 'alert_review') await alertRows.closeOfCase(tx, ctx, id);
    const after = (await caseRows.get(tx, ctx, id))!;
    await announceCaseChange(tx, ctx, before, after);
    const alerts = await alertRows.ofCases(tx, ctx, [id]);
    return toCase(after, await caseRows.transitionsOf(tx, ctx, id), alerts.get(id));
  });
}
