import { subjectStatus } from './session-view.js';
import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, invalid } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { checks, DOCUMENT_MEDIA_TYPES as UPLOAD_DOCUMENT_TYPES, IMAGE_TYPES, sniffContentType } from '../checks/index.js';
import type { DocumentSettings } from '../checks/index.js';
import { startCaptureIn, sessions, type SessionRow } from '../verifications/index.js';
import { assessQuality } from './quality.js';
import type { Resources } from '../../platform/resources.js';
import { captureMedia } from './repository.js';
import type { UploadKind, UploadedMedia } from './schemas.js';
import { documentSettings, stepsFor } from './steps.js';

const TYPE_NAMES: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'application/pdf': 'PDF',
};

/** Refuses a session the subject can no longer add to (409), before any engine runs. */
export function assertWaiting(s: Pick<SessionRow, 'status' | 'expires_at'>): void {
  if (s.status !== 'awaiting_subject' || s.expires_at.getTime() <= Date.now()) {
    // In the subject's words only (session-view.ts): the decision is never told to the subject.
    throw conflict(`The session is ${s.status === 'awaiting_subject' ? 'past its lifetime' : subjectStatus(s.status)}; capture is closed.`);
  }
}

/**
 * Stores one capture: checks the kind belongs to the journey, sniffs the type, runs the quality
 * guidance (outside the transaction), then in one transaction retires the previous upload of the
 * kind, stores the new one sealed, records its guidance and, on the first upload, starts capture.
 */
export async function uploadCaptureMedia(args: {
  ctx: RequestContext;
  sealer: Sealer;
  settings: DocumentSettings;
  resources: Resources;
  sessionId: string;
  kind: UploadKind;
  data: Buffer;
}): Promise<UploadedMedia> {
  const { ctx, kind, data } = args;
  const s = await sessions.get(ctx.db, ctx, args.sessionId);
  if (!s) throw conflict('The session no longer exists.');
  assertWaiting({ status: s.effective_status, expires_at: s.expires_at });
  if (!stepsFor(s.definition).some((step) => step.kind === kind)) {
    throw invalid('kind', `This session's journey does not capture ${kind}; see steps in GET /capture/v1/session.`);
  }
  if (data.length === 0) throw invalid('file', 'The file is empty.');
  if (data.length > args.settings.maxImageBytes) throw tooLarge(args.settings.maxImageBytes);
  const accept = kind === 'proof_of_address' ? UPLOAD_DOCUMENT_TYPES : IMAGE_TYPES;
  const contentType = sniffContentType(data);
  if (!accept.includes(contentType)) {
    throw invalid('file', `The file must be ${accept.map((t) => TYPE_NAMES[t] ?? t).join(', ')} (its content is ${contentType}).`);
  }
  const quality = await assessQuality({
    kind,
    data,
    contentType,
    environment: ctx.environment,
    accepted: documentSettings(s.definition),
    settings: args.settings,
    resources: args.resources,
  });

  return withTransaction(ctx, async (tx) => {
    // The row lock orders uploads of one session against each other and against submission.
    const locked = await sessions.lock(tx, ctx, s.id);
    if (!locked) throw conflict('The session no longer exists.');
    assertWaiting(locked);
    const replaced = await captureMedia.retire(tx, ctx, s.id, kind);
    const row = await checks.insertMedia(tx, ctx, args.sealer, { sessionId: s.id, checkId: null }, { kind, contentType, data });
    await captureMedia.setQuality(tx, ctx, row.id, quality);
    if (!locked.capture_started_at) await startCaptureIn(tx, ctx, s.id);
    await emitAudit(tx, ctx, {
      action: 'verification.media_captured',
      resourceType: 'verification',
      resourceId: s.id,
      metadata: { kind, media_id: row.id, sha256: row.sha256, bytes: row.bytes, replaced, issues: quality.issues.map((i) => i.code) },
    });
    return { kind, media_id: row.id, bytes: row.bytes, content_type: row.content_type, sha256: row.sha256, quality };
  });
}

export function tooLarge(maxBytes: number) {
  const mb = maxBytes >= 1024 * 1024 ? `${Math.floor((maxBytes / 1024 / 1024) * 10) / 10} MB` : `${Math.floor(maxBytes / 1024)} KB`;
  return invalid('file', `The file is larger than the limit of ${mb} (${maxBytes} bytes).`);
}
