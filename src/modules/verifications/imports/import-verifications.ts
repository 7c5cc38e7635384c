import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { emitAudit } from '../../../platform/audit.js';
import { notFound } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import { enqueueEvent } from '../../../platform/outbox.js';
import { iso } from '../../../platform/schemas.js';
import { withTransaction } from '../../../platform/transaction.js';
import { recordUsage } from '../../../platform/usage.js';
import { checks as checkRepo, type MediaInput } from '../../checks/index.js';
import { sessionFields } from '../fields.js';
import { emptyFields } from '../../checks/index.js';
import { openReviewCase } from '../../cases/index.js';
import { issueSessionToken } from '../session-token.js';
import { verificationImports, type ImportRow } from './repository.js';
import { resolveMedia } from './media.js';
import {
  RecordProblem,
  validateRecord,
  type CreateVerificationImport,
  type ImportRecord,
  type RecordResult,
  type VerificationImport,
} from './schemas.js';
import type { ImportSettings } from './settings.js';

/** Reason code of the review case an imported referred session opens when it brings none. */
export const IMPORTED_REFERRAL_CODE = 'imported_referral';

export function toImport(row: ImportRow): VerificationImport {
  return {
    id: row.id,
    object: 'verification_import',
    provider: row.provider,
    created: row.created,
    duplicates: row.duplicates,
    failed: row.failed,
    records: row.records,
    created_at: iso(row.created_at)!,
  };
}

const externalIdOf = (raw: unknown): string | null => {
  const v = raw && typeof raw === 'object' ? (raw as { external_id?: unknown }).external_id : undefined;
  return typeof v === 'string' ? v : null;
};

/** Writes one validated record with its fetched media, all in one transaction; null when it was imported before. */
async function writeRecord(
  ctx: RequestContext,
  sealer: Sealer,
  importId: string,
  provider: string,
  r: ImportRecord,
  media: MediaInput[],
): Promise<string | null> {
  return withTransaction(ctx, async (tx) => {
    const row = await verificationImports.insertSession(tx, ctx, {
      id: newId('session'),
      provider,
      record: r,
      tokenHash: issueSessionToken().hash,
    });
    if (!row) return null;
    const id = row.id;
    await verificationImports.insertTransition(tx, ctx, id, r.status, r.completed_at);
    for (const c of r.checks ?? []) {
      await verificationImports.insertCheck(tx, ctx, sealer, {
        sessionId: id,
        type: c.type,
        status: c.status,
        score: c.score ?? null,
        subjectReference: r.subject.reference,
        payload: { reasons: c.reasons ?? [], signals: [], model: [], timings: {}, result: c.result ?? {} },
        createdAt: r.created_at,
        completedAt: r.completed_at,
      });
    }
    for (const m of media) await checkRepo.insertMedia(tx, ctx, sealer, { sessionId: id }, m);
    if (r.fields) await sessionFields.write(tx, ctx, sealer, id, { ...emptyFields(), ...r.fields });
    if (r.status === 'referred') {
      // A referred session waits in the review queue with a reason code, imported or not.
      const codes = r.reason_codes?.length ? r.reason_codes : [IMPORTED_REFERRAL_CODE];
      await openReviewCase(tx, ctx, { sessionId: id, reasonCode: codes[0]!, reasonCodes: codes, band: r.risk?.band ?? null });
    }
    await recordUsage(tx, ctx, 'verifications', 'import', id);
    await emitAudit(tx, ctx, {
      action: 'verification.imported',
      resourceType: 'verification',
      resourceId: id,
      metadata: {
        import_id: importId,
        provider,
        external_id: r.external_id,
        status: r.status,
        checks: r.checks?.length ?? 0,
        media: media.length,
      },
    });
    await enqueueEvent(tx, ctx, {
      type: 'verification.imported',
      resourceType: 'verification',
      resourceId: id,
      data: {
        id,
        import_id: importId,
        provider,
        external_id: r.external_id,
        subject_reference: r.subject.reference,
        status: r.status,
        decision: row.decision,
        created_at: iso(row.created_at)!,
        completed_at: iso(row.completed_at),
      },
    });
    return id;
  });
}

/**
 * Imports historical verifications. Every record is validated first; duplicates (external ids
 * imported before) are found without fetching anything; then each remaining record has its
 * referenced media fetched (outside any transaction) and is written in its own transaction, so a
 * failing record leaves nothing behind and does not stop the others. The summary is stored last,
 * in the transaction that also stores the Idempotency-Key's response.
 */
export async function importVerifications(args: {
  ctx: RequestContext;
  sealer: Sealer;
  settings: ImportSettings;
  input: CreateVerificationImport;
  logError?: (err: unknown, message: string) => void;
}): Promise<VerificationImport> {
  const { ctx, sealer, settings, input } = args;
  const importId = newId('verificationImport');
  const now = new Date();
  const deadline = Date.now() + settings.fetchBudgetMs;
  // Record transactions must not take the request's Idempotency-Key: only the summary stores the response.
  const recordCtx: RequestContext = { ...ctx, idempotency: undefined };
  const results: RecordResult[] = input.records.map((raw, index) => ({
    index,
    external_id: externalIdOf(raw),
    status: 'failed',
    verification_id: null,
    error: null,
  }));
  const failed = (res: RecordResult, field: string | null, message: string, code = 'invalid_request') => {
    res.status = 'failed';
    res.error = { code, message, field };
  };

  const valid: { index: number; record: ImportRecord }[] = [];
  const firstIndexOf = new Map<string, number>();
  input.records.forEach((raw, index) => {
    const v = validateRecord(raw, index, now);
    if (v instanceof RecordProblem) return failed(results[index]!, v.field, v.message);
    const earlier = firstIndexOf.get(v.external_id);
    if (earlier !== undefined)
      return failed(
        results[index]!,
        `records[${index}].external_id`,
        `records[${index}].external_id repeats records[${earlier}].external_id; each verification is imported once.`,
      );
    firstIndexOf.set(v.external_id, index);
    valid.push({ index, record: v });
  });

  const before = await verificationImports.existing(
    ctx.db,
    ctx,
    input.provider,
    valid.map((v) => v.record.external_id),
  );
  for (const { index, record } of valid) {
    const res = results[index]!;
    const known = before.get(record.external_id);
    if (known) {
      Object.assign(res, { status: 'duplicate', verification_id: known });
      continue;
    }
    try {
      const media = await resolveMedia(record, index, settings, deadline);
      const id = await writeRecord(recordCtx, sealer, importId, input.provider, record, media);
      if (id) Object.assign(res, { status: 'imported', verification_id: id });
      else {
        // Imported meanwhile by a concurrent request: the unique index kept it to one session.
        const again = await verificationImports.existing(ctx.db, ctx, input.provider, [record.external_id]);
        Object.assign(res, { status: 'duplicate', verification_id: again.get(record.external_id) ?? null });
      }
    } catch (err) {
      if (err instanceof RecordProblem) failed(res, err.field, err.message);
      else {
        args.logError?.(err, `import ${importId}: record ${index} failed`);
        failed(
          res,
          null,
          'The record could not be written; nothing of it was kept. Send it again; the request id identifies the failure in our logs.',
          'internal_error',
        );
      }
    }
  }

  const count = (s: RecordResult['status']) => results.filter((r) => r.status === s).length;
  return withTransaction(ctx, async (tx) => {
    const row = await verificationImports.insertSummary(tx, ctx, {
      id: importId,
      provider: input.provider,
      created: count('imported'),
      duplicates: count('duplicate'),
      failed: count('failed'),
      records: results,
    });
    await emitAudit(tx, ctx, {
      action: 'verification_import.created',
      resourceType: 'verification_import',
      resourceId: importId,
      metadata: { provider: input.provider, records: results.length, created: row.created, duplicates: row.duplicates, failed: row.failed },
    });
    return toImport(row);
  });
}

export async function getVerificationImport(ctx: RequestContext, id: string): Promise<VerificationImport> {
  const row = await verificationImports.get(ctx.db, ctx, id);
  if (!row) throw notFound('verification import', 'id');
  return toImport(row);
}
