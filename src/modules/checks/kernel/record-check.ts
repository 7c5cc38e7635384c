import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { emitAudit } from '../../../platform/audit.js';
import { newId } from '../../../platform/ids.js';
import { enqueueEvent } from '../../../platform/outbox.js';
import { recordUsage } from '../../../platform/usage.js';
import { withTransaction } from '../../../platform/transaction.js';
import { defineEvent } from '../../../platform/event-catalog.js';
import { Type } from '@sinclair/typebox';
import { checks, toCheck, type CheckPayload } from './repository.js';
import type { MediaInput } from './media.js';
import type { Check, CheckStatus, CheckType } from './schemas.js';

export const CHECK_COMPLETED = defineEvent(
  'check.completed',
  'A standalone check finished (any status).',
  Type.Object({
    id: Type.String(),
    type: Type.String(),
    status: Type.String(),
    score: Type.Union([Type.Number(), Type.Null()]),
    subject_reference: Type.Union([Type.String(), Type.Null()]),
  }),
);

export interface CheckOutcome extends CheckPayload {
  status: CheckStatus;
  score: number | null;
}

/**
 * Stores a finished standalone check in one transaction: the check (its result sealed), its media
 * (sealed), one usage record, the audit row and a check.completed event. The engine ran before
 * this, outside any transaction; an idempotent replay never reaches here, so it is never billed twice.
 */
export async function recordCheck(args: {
  ctx: RequestContext;
  sealer: Sealer;
  type: CheckType;
  subjectReference?: string | null;
  outcome: CheckOutcome;
  media?: MediaInput[];
  /** Usage operation name; defaults to the check type. */
  billAs?: string;
}): Promise<Check> {
  const { ctx, sealer, type, outcome } = args;
  return withTransaction(ctx, async (tx) => {
    const id = newId('check');
    const row = await checks.insert(tx, ctx, sealer, {
      id,
      type,
      status: outcome.status,
      score: outcome.score,
      subjectReference: args.subjectReference ?? null,
      payload: {
        reasons: outcome.reasons,
        signals: outcome.signals,
        model: outcome.model,
        timings: outcome.timings,
        result: outcome.result,
      },
      completed: true,
    });
    const media = [];
    for (const m of args.media ?? []) media.push(await checks.insertMedia(tx, ctx, sealer, { checkId: id }, m));
    await recordUsage(tx, ctx, 'checks', args.billAs ?? type, id);
    await emitAudit(tx, ctx, {
      action: 'check.created',
      resourceType: 'check',
      resourceId: id,
      metadata: { type, status: outcome.status },
    });
    await enqueueEvent(tx, ctx, {
      type: 'check.completed',
      resourceType: 'check',
      resourceId: id,
      data: { id, type, status: outcome.status, score: outcome.score, subject_reference: args.subjectReference ?? null },
    });
    return toCheck(row, media, sealer);
  });
}

/** Rounds timings to 0.1 ms so responses stay readable. */
export function roundTimings(t: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v * 10) / 10]));
}
