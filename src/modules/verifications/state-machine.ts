/**
 * The session lifecycle: the one place that says which event moves a session from which state to
 * which. Everything that changes a session's status goes through `transition` (pure) and the
 * repository's `applyTransition` (UPDATE … WHERE status = from, plus one transition row).
 */
export const SESSION_STATES = [
  'created',
  'awaiting_subject',
  'processing',
  'referred',
  'approved',
  'declined',
  'abandoned',
  'expired',
] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const SESSION_EVENTS = [
  'token_issued', // the hosted URL and session token were issued (in the creating transaction)
  'capture_started', // the subject opened the flow and sent a first capture (no state change; marks "started")
  'capture_submitted', // the subject finished capture; the check pipeline starts
  'checks_passed', // the journey's decision over the finished checks is approved
  'checks_failed', // … is declined
  'review_required', // … is referred: a case opens in the review queue
  'manual_approve', // a reviewer approved a referred session (POST …/decision)
  'manual_decline', // a reviewer declined a referred session
  'lifetime_elapsed', // expires_at passed with nothing captured
  'lifetime_elapsed_after_capture', // expires_at passed after capture started but before it was submitted
  'cancelled', // deleted (DELETE or retention) while waiting, nothing captured: the lifetime ends now
  'cancelled_after_capture', // … after capture started
] as const;
export type SessionEvent = (typeof SESSION_EVENTS)[number];

export const TRANSITIONS: Record<SessionState, Partial<Record<SessionEvent, SessionState>>> = {
  created: { token_issued: 'awaiting_subject', lifetime_elapsed: 'expired', cancelled: 'expired' },
  awaiting_subject: {
    capture_started: 'awaiting_subject',
    capture_submitted: 'processing',
    lifetime_elapsed: 'expired',
    lifetime_elapsed_after_capture: 'abandoned',
    cancelled: 'expired',
    cancelled_after_capture: 'abandoned',
  },
  // No expiry while processing or referred: the checks or the reviewer finish what the subject submitted.
  processing: { checks_passed: 'approved', checks_failed: 'declined', review_required: 'referred' },
  referred: { manual_approve: 'approved', manual_decline: 'declined' },
  approved: {},
  declined: {},
  abandoned: {},
  expired: {},
};

export const TERMINAL_STATES: readonly SessionState[] = SESSION_STATES.filter((s) => Object.keys(TRANSITIONS[s]).length === 0);
/** States in which expires_at applies. */
export const WAITING_STATES: readonly SessionState[] = ['created', 'awaiting_subject'];

/**
 * The one move outside the table: an imported historical session (POST /v1/verifications/imports)
 * is written directly in the status it ended in at the previous provider, with one transition row
 * `created → <status>` under this event. It never runs a journey, so it never takes the events above
 * to get there; from its imported status it follows the table like any session (a referred one can be
 * decided, the terminal ones cannot move).
 */
export const IMPORTED_EVENT = 'imported';
export const IMPORTABLE_STATES = ['approved', 'declined', 'referred', 'abandoned', 'expired'] as const satisfies readonly SessionState[];

export class IllegalTransition extends Error {
  constructor(
    readonly from: SessionState,
    readonly event: SessionEvent,
  ) {
    super(`A session in status ${from} cannot take the event ${event}.`);
  }
}

/** The next state, or IllegalTransition (the API's 409 conflict). */
export function transition(from: SessionState, event: SessionEvent): SessionState {
  const next = TRANSITIONS[from]?.[event];
  if (!next) throw new IllegalTransition(from, event);
  return next;
}

export function canTransition(from: SessionState, event: SessionEvent): boolean {
  return TRANSITIONS[from]?.[event] !== undefined;
}

/** The event that ends a waiting session's lifetime: abandoned if the subject started, expired if not. */
export function lifetimeEvent(captureStarted: boolean): SessionEvent {
  return captureStarted ? 'lifetime_elapsed_after_capture' : 'lifetime_elapsed';
}

/** The event that ends a waiting session early because it is deleted: its lifetime ends now. */
export function cancelEvent(captureStarted: boolean): SessionEvent {
  return captureStarted ? 'cancelled_after_capture' : 'cancelled';
}

/** The status a reader sees at `now`: a waiting session past expires_at reads as expired or abandoned even before the job persists it. */
export function effectiveState(s: { status: SessionState; expires_at: Date; capture_started_at: Date | null }, now: Date): SessionState {
  if (WAITING_STATES.includes(s.status) && s.expires_at.getTime() <= now.getTime())
    return transition(s.status, lifetimeEvent(s.capture_started_at !== null && s.status === 'awaiting_subject'));
  return s.status;
}
