/**
 * The case lifecycle: open (in the queue) → in_review (someone owns it and works on it) → closed.
 * Every change of a case's state goes through `transition` (pure) and the repository's
 * `applyTransition` (UPDATE … WHERE state = from, plus one case_transitions row).
 */
export const CASE_STATES = ['open', 'in_review', 'closed'] as const;
export type CaseState = (typeof CASE_STATES)[number];

export const CASE_EVENTS = [
  'start_review', // a reviewer took the case (PATCH state in_review)
  'return_to_queue', // the reviewer put it back (PATCH state open)
  'close', // a reviewer closed it with a resolution (PATCH state closed; screening alerts only)
  'session_decided', // the referred session got its decision (POST /v1/verifications/{id}/decision)
  'session_deleted', // the referred session was deleted (DELETE /v1/verifications/{id})
  'alert_closed', // the alert's entity left its list (monitoring re-screen)
] as const;
export type CaseEvent = (typeof CASE_EVENTS)[number];

export const TRANSITIONS: Record<CaseState, Partial<Record<CaseEvent, CaseState>>> = {
  open: { start_review: 'in_review', close: 'closed', session_decided: 'closed', session_deleted: 'closed', alert_closed: 'closed' },
  in_review: { return_to_queue: 'open', close: 'closed', session_decided: 'closed', session_deleted: 'closed', alert_closed: 'closed' },
  // Closed is final: the decision it records (or the alert it resolved) is history.
  closed: {},
};

export class IllegalCaseTransition extends Error {
  constructor(
    readonly from: CaseState,
    readonly event: CaseEvent,
  ) {
    super(`A case in state ${from} cannot take the event ${event}.`);
  }
}

export function transition(from: CaseState, event: CaseEvent): CaseState {
  const next = TRANSITIONS[from]?.[event];
  if (!next) throw new IllegalCaseTransition(from, event);
  return next;
}

/** The reviewer's event that moves a case from `from` to `to` (PATCH names the target state), or null. */
export function reviewerEvent(from: CaseState, to: CaseState): CaseEvent | null {
  const reviewer: CaseEvent[] = ['start_review', 'return_to_queue', 'close'];
  return reviewer.find((e) => TRANSITIONS[from][e] === to) ?? null;
}
