// Lifecycle of a Travel Rule message, one table per direction: { state: { action: next } }.
// A union of TRISA transfer states, Envoy statuses and Notabene's SAVED, mapped to TRP:
// send = Inquiry, accept = Resolution approved, reject = Resolution rejected, confirm = Confirmation txid,
// cancel = Confirmation canceled. `saved` is a transfer below the jurisdiction's threshold: stored, not sent.

export type Direction = 'outgoing' | 'incoming';
export type MessageState =
  'draft' | 'sent' | 'received' | 'in_review' | 'accepted' | 'rejected' | 'repair_requested' | 'completed' | 'canceled' | 'saved';
export type MessageAction = 'send' | 'save' | 'receive' | 'review' | 'accept' | 'reject' | 'request_repair' | 'confirm' | 'cancel';

type Table = Partial<Record<MessageState, Partial<Record<MessageAction, MessageState>>>>;

/** Outgoing: our customer sends; accept / reject / request_repair record the beneficiary VASP's answer. */
export const OUTGOING_TRANSITIONS: Table = {
  draft: { send: 'sent', save: 'saved', cancel: 'canceled' },
  sent: { accept: 'accepted', reject: 'rejected', request_repair: 'repair_requested', cancel: 'canceled' },
  // The repaired message goes out again under the same request identifier.
  repair_requested: { send: 'sent', cancel: 'canceled' },
  accepted: { confirm: 'completed', cancel: 'canceled' },
  rejected: {},
  completed: {},
  canceled: {},
  saved: {},
};

/** Incoming: a counterparty sends to our customer; accept / reject / request_repair are our decisions. */
export const INCOMING_TRANSITIONS: Table = {
  received: {
    review: 'in_review',
    accept: 'accepted',
    reject: 'rejected',
    request_repair: 'repair_requested',
    save: 'saved',
    cancel: 'canceled',
  },
  in_review: { accept: 'accepted', reject: 'rejected', request_repair: 'repair_requested', cancel: 'canceled' },
  // The originator answers a repair request with a corrected message.
  repair_requested: { receive: 'received', cancel: 'canceled' },
  accepted: { confirm: 'completed', cancel: 'canceled' },
  rejected: {},
  completed: {},
  canceled: {},
  saved: {},
};

const TABLES: Record<Direction, Table> = { outgoing: OUTGOING_TRANSITIONS, incoming: INCOMING_TRANSITIONS };

export const INITIAL_STATE: Record<Direction, MessageState> = { outgoing: 'draft', incoming: 'received' };

/** Thrown for a move the table does not allow; the HTTP module answers it with 409 conflict. */
export class IllegalTransitionError extends Error {
  readonly code = 'illegal_transition';
  constructor(
    readonly direction: Direction,
    readonly from: MessageState,
    readonly action: MessageAction,
  ) {
    super(`cannot ${action} an ${direction} message that is ${from}`);
    this.name = 'IllegalTransitionError';
  }
}

/** The next state, or undefined when the move is not allowed. */
export function nextState(direction: Direction, from: MessageState, action: MessageAction): MessageState | undefined {
  return TABLES[direction][from]?.[action];
}

/** The next state; throws IllegalTransitionError when the move is not allowed. */
export function transition(direction: Direction, from: MessageState, action: MessageAction): MessageState {
  const to = nextState(direction, from, action);
  if (to === undefined) throw new IllegalTransitionError(direction, from, action);
  return to;
}

/** Actions allowed from a state, e.g. to show the buttons a reviewer may press. */
export function allowedActions(direction: Direction, from: MessageState): MessageAction[] {
  return Object.keys(TABLES[direction][from] ?? {}) as MessageAction[];
}

export function isTerminal(direction: Direction, state: MessageState): boolean {
  return allowedActions(direction, state).length === 0;
}
