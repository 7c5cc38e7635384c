import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  allowedActions,
  IllegalTransitionError,
  INCOMING_TRANSITIONS,
  INITIAL_STATE,
  isTerminal,
  nextState,
  OUTGOING_TRANSITIONS,
  rejectCode,
  REJECT_CODES,
  transition,
  type MessageAction,
} from './index.js';

test('outgoing happy path: draft → sent → accepted → completed', () => {
  let s = INITIAL_STATE.outgoing;
  for (const [action, to] of [
    ['send', 'sent'],
    ['accept', 'accepted'],
    ['confirm', 'completed'],
  ] as const) {
    s = transition('outgoing', s, action);
    assert.equal(s, to);
  }
  assert.equal(isTerminal('outgoing', s), true);
});

test('outgoing repair loop and cancellation, and saved below threshold', () => {
  assert.equal(transition('outgoing', 'sent', 'request_repair'), 'repair_requested');
  assert.equal(transition('outgoing', 'repair_requested', 'send'), 'sent');
  assert.equal(transition('outgoing', 'accepted', 'cancel'), 'canceled');
  assert.equal(transition('outgoing', 'draft', 'save'), 'saved');
  assert.equal(transition('outgoing', 'sent', 'reject'), 'rejected');
});

test('incoming: received → in_review → accepted → completed; repair brings a new receive', () => {
  let s = INITIAL_STATE.incoming;
  assert.equal(s, 'received');
  s = transition('incoming', s, 'review');
  s = transition('incoming', s, 'request_repair');
  assert.equal(s, 'repair_requested');
  s = transition('incoming', s, 'receive');
  s = transition('incoming', s, 'accept');
  assert.equal(transition('incoming', s, 'confirm'), 'completed');
});

test('illegal moves throw IllegalTransitionError (the module answers 409)', () => {
  const illegal: [Parameters<typeof transition>[0], Parameters<typeof transition>[1], MessageAction][] = [
    ['outgoing', 'draft', 'confirm'],
    ['outgoing', 'completed', 'cancel'],
    ['outgoing', 'rejected', 'accept'],
    ['outgoing', 'saved', 'send'],
    ['outgoing', 'draft', 'review'],
    ['incoming', 'received', 'send'],
    ['incoming', 'completed', 'reject'],
    ['incoming', 'canceled', 'confirm'],
    ['incoming', 'in_review', 'confirm'],
  ];
  for (const [d, from, action] of illegal) {
    assert.equal(nextState(d, from, action), undefined, `${d} ${from} ${action}`);
    assert.throws(
      () => transition(d, from, action),
      (e: unknown) => e instanceof IllegalTransitionError && e.code === 'illegal_transition' && e.from === from,
    );
  }
});

test('tables are closed: every target state is a state of the same table', () => {
  for (const table of [OUTGOING_TRANSITIONS, INCOMING_TRANSITIONS]) {
    const states = new Set(Object.keys(table));
    for (const moves of Object.values(table)) for (const to of Object.values(moves ?? {})) assert.ok(states.has(to!), to);
  }
  assert.deepEqual(allowedActions('incoming', 'completed'), []);
});

test('reject codes carry whether a retry may help, and accept TRISA spelling', () => {
  assert.equal(rejectCode('COMPLIANCE_CHECK_FAIL')?.retryable, false);
  assert.equal(rejectCode('missing_fields')?.retryable, true);
  assert.equal(rejectCode('nope'), undefined);
  assert.ok([...REJECT_CODES.values()].some((c) => c.retryable) && [...REJECT_CODES.values()].some((c) => !c.retryable));
});
