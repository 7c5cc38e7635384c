import { Type } from '@sinclair/typebox';
import type { RequestContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { emitAudit } from '../../../platform/audit.js';
import { enqueueEvent } from '../../../platform/outbox.js';
import { defineEvent } from '../../../platform/event-catalog.js';
import { withTransaction } from '../../../platform/transaction.js';
import { confirmVerification, type ConfirmOutcome } from '../../../engines/contact/index.js';
import { signal } from '../../../engines/signal.js';
import { toCheck, type Check, type CheckStatus } from '../kernel/index.js';
import { otpConfig, type ContactDeps } from './deliver.js';
import { getCheckForUpdate, updateCheck, verifications } from './repository.js';
import { contactResult } from './start.js';

export const CONTACT_VERIFIED = defineEvent(
  'contact.verified',
  'A contact check verified an email address or phone number with a one-time code.',
  Type.Object({
    id: Type.String({ description: 'The check id.' }),
    channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
    subject_reference: Type.Union([Type.String(), Type.Null()]),
    verified_at: Type.String({ format: 'date-time' }),
  }),
);

const OUTCOME: Record<ConfirmOutcome, { status: CheckStatus; reasons: string[] }> = {
  verified: { status: 'passed', reasons: [] },
  already_verified: { status: 'passed', reasons: [] },
  invalid_code: { status: 'pending', reasons: ['invalid_code'] },
  expired: { status: 'failed', reasons: ['code_expired'] },
  too_many_attempts: { status: 'failed', reasons: ['too_many_attempts'] },
};

/**
 * Confirm: one transaction that locks the verification (concurrent guesses are counted one by one),
 * checks the code in constant time, stores the next state and updates the check; on a final status
 * it emits check.completed, and on success contact.verified. A final check is returned unchanged.
 */
export async function confirmContact(d: ContactDeps, args: { ctx: RequestContext; id: string; code: string }): Promise<Check> {
  const { ctx, id } = args;
  return withTransaction(ctx, async (tx) => {
    const current = await getCheckForUpdate(tx, ctx, id);
    const v = current ? await verifications.getForUpdate(tx, ctx, id) : null;
    if (!current || !v || v.status === 'sending') throw notFound('contact check', 'id');
    const before = toCheck(current, [], d.sealer);
    if (current.status !== 'pending') return before;

    const r = confirmVerification(verifications.open(d.sealer, v), args.code, new Date(), d.secrets.otp, otpConfig(d.settings));
    await verifications.update(tx, ctx, d.sealer, id, r.state);
    const { status, reasons } = OUTCOME[r.outcome];
    const final = status !== 'pending';
    const codeSignal = signal('code_match', r.outcome === 'verified', r.outcome === 'verified', {
      detail: `Outcome ${r.outcome}; ${r.attemptsLeft} attempts left.`,
    });
    const result = {
      ...before.result,
      ...contactResult(d, id, r.state, { disposable: (before.result.disposable_domain as boolean | undefined) ?? null }),
    };
    const row = await updateCheck(tx, ctx, d.sealer, id, {
      status,
      score: status === 'passed' ? 1 : status === 'failed' ? 0 : null,
      completed: final,
      payload: {
        reasons,
        signals: [...before.signals.filter((s) => s.name !== 'code_match'), codeSignal],
        model: before.model,
        timings: before.timings,
        result,
      },
    });
    await emitAudit(tx, ctx, {
      action: 'check.updated',
      resourceType: 'check',
      resourceId: id,
      metadata: { type: 'contact', operation: 'confirm', outcome: r.outcome, status },
    });
    if (final) {
      await enqueueEvent(tx, ctx, {
        type: 'check.completed',
        resourceType: 'check',
        resourceId: id,
        data: { id, type: 'contact', status, score: row!.score, subject_reference: current.subject_reference },
      });
    }
    if (r.outcome === 'verified') {
      await enqueueEvent(tx, ctx, {
        type: 'contact.verified',
        resourceType: 'check',
        resourceId: id,
        data: { id, channel: r.state.channel, subject_reference: current.subject_reference, verified_at: r.state.verifiedAt },
      });
    }
    return toCheck(row!, [], d.sealer);
  });
}
