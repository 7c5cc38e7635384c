import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { emitAudit } from '../../../platform/audit.js';
import { AppError, conflict, invalid, notFound } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import { withTransaction } from '../../../platform/transaction.js';
import { decide, type CheckOutcome as JourneyOutcome } from '../../journeys/index.js';
import { type ScreeningIndexCache, evaluateScreening, screeningInputFor } from '../../checks/index.js';
import { emptyFields, type CheckOutcome, type SubjectFields } from '../../checks/index.js';
import { withoutEngine } from '../../checks/index.js';
import { announceCaseChange, assertReviewOwner, caseRows, reviewSeverity } from '../../cases/index.js';
import type { CorrectFields, Correction } from './schemas.js';
import { SCREENING_INPUT_FIELDS, screeningSettingsOf } from './screening-input.js';
import { correctionRepo } from './repository.js';
import { corrections, diffFields } from './corrections.js';
import { loadVerificationDetail } from './view.js';
import { sessionFields } from '../fields.js';
import { sessions, type SessionRow } from '../repository.js';
import type { Verification } from '../schemas.js';
import { effectiveState } from '../state-machine.js';

function assertCorrectable(s: SessionRow | null): asserts s is SessionRow {
  if (!s) throw notFound('verification', 'id');
  if (s.deleted_at) throw conflict('The session was deleted (its personal data is gone); its fields can no longer be corrected.');
  const status = effectiveState(s, new Date());
  if (status !== 'referred')
    throw conflict(`The session is ${status}; extracted fields can be corrected only while it is referred (under review).`);
}

/**
 * PATCH /v1/verifications/{id}: a reviewer corrects extracted fields of a referred session. When a
 * correction changes an input of screening and the journey screens, the sanctions_pep check is re-run
 * first (outside the transaction, the same engine as POST /v1/checks/screening); then one transaction
 * writes the fields, the check's new result, the recomputed risk and reason codes (the session stays
 * referred: a correction never decides), the open case's reasons and severity, the correction row
 * (values sealed) and the audit row (salted hashes only).
 */
export async function correctFields({
  ctx,
  sealer,
  cache,
  hostedBaseUrl,
  id,
  input,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  cache: ScreeningIndexCache;
  hostedBaseUrl: string;
  id: string;
  input: CorrectFields;
}): Promise<Verification> {
  const pre = await sessions.get(ctx.db, ctx, id);
  assertCorrectable(pre);
  const current = (await sessionFields.read(ctx.db, ctx, sealer, id)) ?? emptyFields();
  const changes = diffFields(current, input.fields);
  const names = Object.keys(changes);
  if (names.length === 0) return loadVerificationDetail(ctx.db, ctx, sealer, id, hostedBaseUrl); // nothing changes: nothing to record
  const corrected = { ...current, ...input.fields } as SubjectFields;

  const settings = screeningSettingsOf(pre.definition);
  let outcome: CheckOutcome | null = null;
  if (settings && names.some((n) => SCREENING_INPUT_FIELDS.includes(n as keyof SubjectFields))) {
    const request = screeningInputFor(corrected, settings, { reference: pre.subject_reference, country: pre.subject_country });
    if (!request)
      throw invalid('fields.surname', 'The journey screens the subject, so the corrected fields need a name (given_names or surname).');
    // As in the pipeline: screening that cannot run here (no list imported) is an outcome for review, not a refusal.
    outcome = await evaluateScreening({ ctx, sealer, cache, input: request }).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'check_unavailable')
        return withoutEngine('potential_match', 'check_unavailable', err.message);
      throw err;
    });
  }

  return withTransaction(ctx, async (tx) => {
    const s = await sessions.lock(tx, ctx, id);
    assertCorrectable(s);
    await assertReviewOwner(tx, ctx, id);
    const now = (await sessionFields.read(tx, ctx, sealer, id)) ?? emptyFields();
    if (JSON.stringify(now) !== JSON.stringify(current)) throw conflict("The session's fields changed meanwhile; retrieve it and retry.");
    await sessionFields.write(tx, ctx, sealer, id, corrected);

    let rescreening: Correction['rescreening'] = null;
    if (outcome) {
      const checks = (await sessions.checksOf(tx, [id])).get(id) ?? [];
      const before = checks.find((c) => c.type === 'sanctions_pep')?.status ?? 'pending';
      await correctionRepo.storeScreening(tx, ctx, sealer, id, outcome);
      const outcomes = checks
        .filter((c) => c.type !== 'risk_score')
        .map((c) => ({ type: c.type, status: c.type === 'sanctions_pep' ? outcome!.status : c.status }) as JourneyOutcome);
      let recommendation: string | null = null;
      try {
        // Journey rules read the corrected fields as the document's (declared data and check scores are not
        // known here: they read their defaults; this is a recommendation, the reviewer decides).
        const d = decide(s.definition, outcomes, {
          subject: { type: s.subject_type, reference: s.subject_reference, country: s.subject_country },
          document: corrected,
          now: Date.now(),
        });
        recommendation = d.decision;
        await correctionRepo.storeRisk(tx, ctx, id, d);
        for (const before of await caseRows.unclosedOfSession(tx, ctx, id)) {
          await caseRows.setReasons(tx, ctx, before.id, {
            reasonCode: d.reason_codes[0] ?? before.reason_code,
            reasonCodes: d.reason_codes,
            severity: reviewSeverity(d.risk.band, d.reason_codes),
          });
          await announceCaseChange(tx, ctx, before, (await caseRows.get(tx, ctx, before.id))!, { event: 'fields_corrected' });
        }
      } catch (err) {
        // A session whose checks are not all decidable outcomes (an imported history) keeps its risk.
        if (!(err instanceof Error && err.message.startsWith('decide:'))) throw err;
      }
      rescreening = { before, after: outcome.status, score: outcome.score ?? 0, recommendation };
    }

    const correctionId = newId('correction');
    const hashes = await corrections.insert(tx, ctx, sealer, {
      id: correctionId,
      sessionId: id,
      actor: `${ctx.actor.type}:${ctx.actor.id}`,
      reason: input.reason,
      changes,
      rescreening,
    });
    await emitAudit(tx, ctx, {
      action: 'verification.fields_corrected',
      resourceType: 'verification',
      resourceId: id,
      metadata: { correction_id: correctionId, fields: names, ...hashes, reason: input.reason, rescreening },
    });
    return loadVerificationDetail(tx, ctx, sealer, id, hostedBaseUrl);
  });
}
