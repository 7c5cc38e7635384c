import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { systemContext, type Environment } from '../../platform/context.js';
import type { CheckOutcome, JourneyDefinition } from '../journeys/index.js';
import { statusesOf, type JourneyCheckType } from '../checks/index.js';
import type { OutcomeStatus } from '../checks/index.js';
import { completeSessionChecks, startCapture, submitCapture } from './complete.js';
import { sessions } from './repository.js';
import type { SessionState } from './state-machine.js';

/** Lifetime of sandbox sessions forced to expire or be abandoned, so an integrator sees it quickly. */
export const SANDBOX_SHORT_LIFETIME_SECONDS = 5;

type Forced = 'approved' | 'declined' | 'referred';
export interface SandboxSubject {
  reference: string;
  reaches: SessionState;
  description: string;
  /** Check outcomes forced before the journey's rules decide (approved/declined/referred only). */
  forced?: Forced;
  events: string[];
}

/**
 * Sandbox test subjects: a session whose subject.reference is one of these walks the real state
 * machine to the named state in a background job, with the journey's real decision and risk rules
 * over forced check outcomes, and emits the real events. Sandbox keys only; production ignores them.
 */
export const SANDBOX_SUBJECTS: SandboxSubject[] = [
  {
    reference: 'sandbox_created',
    reaches: 'awaiting_subject',
    events: [],
    description:
      'created is only held inside the creating transaction; every session passes through it (its first transition row is created → awaiting_subject, event token_issued). Behaves like any reference.',
  },
  {
    reference: 'sandbox_awaiting_subject',
    reaches: 'awaiting_subject',
    events: ['verification.expired (status expired, at expires_at)'],
    description:
      "Nothing happens: the session waits on the subject until its journey's lifetime ends (any reference not listed here does the same).",
  },
  {
    reference: 'sandbox_processing',
    reaches: 'processing',
    events: [],
    description:
      'Capture is submitted at once; the checks stay processing and the session never decides (use it to build your waiting screen).',
  },
  {
    reference: 'sandbox_approved',
    reaches: 'approved',
    forced: 'approved',
    events: ['verification.completed'],
    description: 'Every check ends clean (passed, no_match); approved with risk score 0 (band low).',
  },
  {
    reference: 'sandbox_declined',
    reaches: 'declined',
    forced: 'declined',
    events: ['verification.completed'],
    description:
      'The document check fails (sanctions_pep match in a journey without document); declined with reason document_failed under the default journeys.',
  },
  {
    reference: 'sandbox_referred',
    reaches: 'referred',
    forced: 'referred',
    events: ['verification.referred', 'verification.completed (after POST /v1/verifications/{id}/decision)'],
    description:
      'sanctions_pep ends potential_match (document needs_review in a journey without screening); referred with reason sanctions_pep_potential_match, a case opens. Record a decision with POST /v1/verifications/{id}/decision.',
  },
  {
    reference: 'sandbox_abandoned',
    reaches: 'abandoned',
    events: ['verification.expired (status abandoned)'],
    description: `Capture starts at once and never finishes; the session lives ${SANDBOX_SHORT_LIFETIME_SECONDS} s and then reads as abandoned.`,
  },
  {
    reference: 'sandbox_expired',
    reaches: 'expired',
    events: ['verification.expired (status expired)'],
    description: `Nothing is captured; the session lives ${SANDBOX_SHORT_LIFETIME_SECONDS} s and then reads as expired.`,
  },
];

/** The forced outcome of a subject reference, in the sandbox only. */
export function sandboxOutcome(environment: Environment, reference: string): SandboxSubject | null {
  if (environment !== 'sandbox') return null;
  return (
    SANDBOX_SUBJECTS.find(
      (s) => s.reference === reference && s.reference !== 'sandbox_created' && s.reference !== 'sandbox_awaiting_subject',
    ) ?? null
  );
}

/** Forced check outcomes: clean everywhere except the one check that carries the outcome. */
export function forcedOutcomes(def: JourneyDefinition, forced: Forced): CheckOutcome[] {
  const types = def.checks.map((c) => c.type).filter((t): t is Exclude<JourneyCheckType, 'risk_score'> => t !== 'risk_score');
  const clean = (t: JourneyCheckType): OutcomeStatus => statusesOf(t)[0]!;
  let target: { type: JourneyCheckType; status: OutcomeStatus } | null = null;
  if (forced === 'declined') {
    const t = types.find((x) => x !== 'sanctions_pep') ?? 'sanctions_pep';
    target = { type: t, status: t === 'sanctions_pep' ? 'match' : 'failed' };
  } else if (forced === 'referred') {
    const t = types.includes('sanctions_pep') ? 'sanctions_pep' : types[0]!;
    target = { type: t, status: t === 'sanctions_pep' ? 'potential_match' : 'needs_review' };
  }
  return types.map((type) => ({ type, status: target && target.type === type ? target.status : clean(type) }));
}

type RunPayload = { account_id: string; environment: Environment; session_id: string };

/**
 * Job verifications.sandbox_run: drives one sandbox session through the real transitions. Each
 * step re-reads the session, so a retried job continues where it stopped.
 */
export async function runSandboxSession(db: Db, payload: RunPayload): Promise<void> {
  if (payload.environment !== 'sandbox') return; // never in production, whatever the payload says
  try {
    await walk(db, payload);
  } catch (err) {
    // The session moved on without us (its lifetime ended before a slow worker got here): that is
    // the real state machine speaking, not a failure to retry.
    if (!(err instanceof AppError && err.code === 'conflict')) throw err;
  }
}

async function walk(db: Db, payload: RunPayload): Promise<void> {
  const ctx = systemContext(db, payload.account_id, 'sandbox', 'job:verifications.sandbox_run');
  const read = () => sessions.sandboxState(db, ctx, payload.session_id);
  let s = await read();
  const subject = SANDBOX_SUBJECTS.find((x) => x.reference === s?.sandbox_outcome);
  if (!s || !subject || subject.reaches === 'expired') return;
  if (s.status === 'awaiting_subject' && !s.capture_started_at) {
    await startCapture(db, ctx, payload.session_id);
    s = (await read())!;
  }
  if (subject.reaches === 'abandoned') return;
  if (s.status === 'awaiting_subject') {
    await submitCapture(db, ctx, payload.session_id);
    s = (await read())!;
  }
  if (s.status === 'processing' && subject.forced)
    await completeSessionChecks(db, ctx, payload.session_id, forcedOutcomes(s.definition, subject.forced));
}
