import type { Queryable } from '../../platform/db.js';
import { iso } from '../../platform/schemas.js';
import { sessions, type Tenant } from '../verifications/index.js';
import { captureMedia } from './repository.js';
import type { CaptureSession } from './schemas.js';
import { documentSettings, stepsFor } from './steps.js';
import { challengeRecorded } from './liveness-challenge.js';

const SUBJECT_STATUS: Record<string, CaptureSession['status']> = {
  created: 'awaiting_subject',
  awaiting_subject: 'awaiting_subject',
  processing: 'processing',
  approved: 'complete',
  declined: 'complete',
  referred: 'complete',
  expired: 'expired',
  abandoned: 'abandoned',
};

/**
 * What the subject may know of their session's status: never the decision (approved, declined or
 * referred are all "complete"), since telling a possible sanctions match that they were referred would
 * tip them off.
 */
export const subjectStatus = (internal: string): CaptureSession['status'] => SUBJECT_STATUS[internal] ?? 'processing';

const subjectCheckStatus = (s: string): CaptureSession['checks'][number]['status'] =>
  s === 'pending' || s === 'processing' ? s : 'complete';

/**
 * The session as its subject may see it: what to capture, what is captured and how it looked, and
 * progress. Whatever this returns is in the subject's hands, so it never carries the decision, a
 * check's outcome, risk or the subject reference.
 */
export async function captureSessionView(
  db: Queryable,
  t: Tenant,
  sessionId: string,
  maxUploadBytes: number,
): Promise<CaptureSession | null> {
  const s = await sessions.get(db, t, sessionId);
  if (!s || s.deleted_at) return null;
  const [checks, media] = await Promise.all([sessions.checksOf(db, [s.id]), captureMedia.current(db, t, s.id)]);
  const byKind = new Map(media.map((m) => [m.kind, m]));
  const challengeDone = challengeRecorded(s, new Set(byKind.keys()));
  const doc = documentSettings(s.definition);
  return {
    id: s.id,
    status: subjectStatus(s.effective_status),
    journey: s.journey_key,
    expires_at: iso(s.expires_at)!,
    redirect_url: s.redirect_url,
    steps: stepsFor(s.definition).map((step) => ({
      ...step,
      captured: step.kind === 'liveness_challenge' ? challengeDone : byKind.has(step.kind),
      quality: byKind.get(step.kind)?.quality ?? null,
    })),
    accepted_document_types: doc.types,
    accepted_countries: doc.countries,
    max_upload_bytes: maxUploadBytes,
    checks: (checks.get(s.id) ?? []).map((c) => ({ type: c.type, status: subjectCheckStatus(c.status) })),
  };
}
