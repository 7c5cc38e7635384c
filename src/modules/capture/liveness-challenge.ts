import { randomBytes, randomInt } from 'node:crypto';
import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, invalid } from '../../platform/errors.js';
import { iso } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import { CHALLENGE_ACTIONS, CHALLENGE_LENGTH, FRAMES_PER_ACTION, challengeFrameCount } from '../../engines/face/index.js';
import { challengeFrameKind, checks, IMAGE_TYPES, sniffContentType } from '../checks/index.js';
import { startCaptureIn, sessions, type LivenessChallenge as StoredChallenge, type SessionRow } from '../verifications/index.js';
import { captureMedia } from './repository.js';
import type { LivenessChallenge, UploadedFrame } from './schemas.js';
import { usesChallenge } from './steps.js';
import { assertWaiting, tooLarge } from './upload-media.js';

/**
 * How long after a challenge is issued its frames are accepted. Short on purpose: the subject follows
 * the prompts live, and a recording made for another sequence cannot be prepared in the meantime.
 */
export const CHALLENGE_LIFETIME_MS = 120_000;

/**
 * A random sequence of actions from the CSPRNG, none twice in a row (4 · 3 · 3 = 36 possible; distinct actions
 * gave 24). A blind replay of one recording matches one sequence: docs/face.md § Active challenge.
 */
export function randomActions(): string[] {
  const out: string[] = [];
  for (let i = 0; i < CHALLENGE_LENGTH; i++) {
    const pool = CHALLENGE_ACTIONS.filter((a) => a !== out.at(-1));
    out.push(pool[randomInt(pool.length)]!);
  }
  return out;
}

const view = (c: StoredChallenge): LivenessChallenge => ({
  challenge_id: c.id,
  actions: c.actions as LivenessChallenge['actions'],
  frames_per_action: FRAMES_PER_ACTION,
  frame_count: challengeFrameCount(c.actions.length),
  expires_at: iso(new Date(Date.parse(c.issued_at) + CHALLENGE_LIFETIME_MS))!,
});

function assertChallengeJourney(s: Pick<SessionRow, 'definition'>): void {
  if (!usesChallenge(s.definition))
    throw invalid('liveness_challenge', "This session's journey has no liveness challenge; see steps in GET /capture/v1/session.");
}

/**
 * Issues a new challenge for the session (replacing any earlier one and retiring its frames, in one
 * transaction): the sequence is the server's, so the frames can only pass for the session that asked.
 */
export async function issueChallenge({ ctx, sessionId }: { ctx: RequestContext; sessionId: string }): Promise<LivenessChallenge> {
  return withTransaction(ctx, async (tx) => {
    const s = await sessions.lock(tx, ctx, sessionId);
    if (!s) throw conflict('The session no longer exists.');
    assertWaiting(s);
    assertChallengeJourney(s);
    const challenge: StoredChallenge = {
      id: `chl_${randomBytes(12).toString('hex')}`,
      actions: randomActions(),
      issued_at: new Date().toISOString(),
    };
    const frameKinds = Array.from({ length: challengeFrameCount(CHALLENGE_LENGTH) }, (_, i) => challengeFrameKind(i));
    const retired = await captureMedia.retire(tx, ctx, s.id, frameKinds);
    await sessions.setChallenge(tx, ctx, s.id, challenge);
    if (!s.capture_started_at) await startCaptureIn(tx, ctx, s.id);
    await emitAudit(tx, ctx, {
      action: 'verification.liveness_challenge_issued',
      resourceType: 'verification',
      resourceId: s.id,
      metadata: { challenge_id: challenge.id, actions: challenge.actions, retired_frames: retired },
    });
    return view(challenge);
  });
}

/** Stores frame `index` of the current challenge (a re-upload of an index replaces it). */
export async function uploadChallengeFrame(args: {
  ctx: RequestContext;
  sealer: Sealer;
  maxBytes: number;
  sessionId: string;
  index: number;
  data: Buffer;
}): Promise<UploadedFrame> {
  const { ctx, index, data } = args;
  if (data.length === 0) throw invalid('file', 'The file is empty.');
  if (data.length > args.maxBytes) throw tooLarge(args.maxBytes);
  const contentType = sniffContentType(data);
  if (!IMAGE_TYPES.includes(contentType))
    throw invalid('file', `A frame must be a JPEG, PNG, WebP or HEIC image (its content is ${contentType}).`);
  return withTransaction(ctx, async (tx) => {
    const s = await sessions.lock(tx, ctx, args.sessionId);
    if (!s) throw conflict('The session no longer exists.');
    assertWaiting(s);
    assertChallengeJourney(s);
    const c = s.liveness_challenge;
    if (!c) throw conflict('No liveness challenge was requested; POST /capture/v1/challenge first.');
    if (Date.parse(c.issued_at) + CHALLENGE_LIFETIME_MS <= Date.now())
      throw conflict('The liveness challenge has expired; request a new one with POST /capture/v1/challenge.');
    const count = challengeFrameCount(c.actions.length);
    if (index >= count) throw invalid('index', `This challenge has ${count} frames (index 0 to ${count - 1}).`);
    const kind = challengeFrameKind(index);
    await captureMedia.retire(tx, ctx, s.id, kind);
    const row = await checks.insertMedia(tx, ctx, args.sealer, { sessionId: s.id, checkId: null }, { kind, contentType, data });
    await emitAudit(tx, ctx, {
      action: 'verification.media_captured',
      resourceType: 'verification',
      resourceId: s.id,
      metadata: { kind, challenge_id: c.id, media_id: row.id, sha256: row.sha256, bytes: row.bytes },
    });
    return { challenge_id: c.id, index, media_id: row.id, bytes: row.bytes, content_type: row.content_type, sha256: row.sha256 };
  });
}

/** Whether every frame of the session's current challenge is uploaded (`kinds`: the current media kinds). */
export function challengeRecorded(s: Pick<SessionRow, 'liveness_challenge'>, kinds: Set<string>): boolean {
  const c = s.liveness_challenge;
  if (!c) return false;
  for (let i = 0; i < challengeFrameCount(c.actions.length); i++) if (!kinds.has(challengeFrameKind(i))) return false;
  return true;
}
