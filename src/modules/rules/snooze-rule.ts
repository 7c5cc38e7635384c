import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { iso } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import { ruleRows } from './repository.js';
import { effectiveDraft, principalOf } from './rule-set.js';
import type { CreateSnooze, Snooze } from './schemas.js';

const MAX_SNOOZE_MS = 365 * 24 * 3600 * 1000;

/**
 * POST /v1/rules/{id}/snoozes: the rule does not count for this subject until `until` (it is still
 * evaluated: outcome snoozed with would_hit). The rule must exist in the current version or the draft.
 */
export async function snoozeRule({ ctx, id, input }: { ctx: RequestContext; id: string; input: CreateSnooze }): Promise<Snooze> {
  const until = new Date(input.until);
  const now = Date.now();
  if (!(until.getTime() > now)) throw invalid('until', 'until must be in the future.');
  if (until.getTime() - now > MAX_SNOOZE_MS) throw invalid('until', 'A snooze lasts at most 365 days.');
  return withTransaction(ctx, async (tx) => {
    const current = await ruleRows.current(tx, ctx);
    const known =
      current?.document.rules.some((r) => r.id === id) || (await effectiveDraft(tx, ctx)).document.rules.some((r) => r.id === id);
    if (!known) throw notFound('rule', 'id');
    const row = await ruleRows.insertSnooze(tx, ctx, {
      id: newId('ruleSnooze'),
      rule_id: id,
      subject_reference: input.subject_reference,
      until,
      reason: input.reason,
      created_by: principalOf(ctx),
      created_at: new Date(),
    });
    await emitAudit(tx, ctx, {
      action: 'rule.snoozed',
      resourceType: 'rule',
      resourceId: id,
      metadata: { snooze_id: row.id, subject_reference: row.subject_reference, until: iso(row.until), reason: row.reason },
    });
    return {
      id: row.id,
      object: 'rule_snooze',
      rule_id: row.rule_id,
      subject_reference: row.subject_reference,
      until: iso(row.until)!,
      reason: row.reason,
      created_by: row.created_by,
      created_at: iso(row.created_at)!,
    };
  });
}
