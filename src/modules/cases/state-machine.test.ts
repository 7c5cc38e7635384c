import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CASE_EVENTS, CASE_STATES, IllegalCaseTransition, reviewerEvent, transition, TRANSITIONS } from './state-machine.js';

test('the case table: open ⇄ in_review → closed, and closed is final', () => {
  assert.equal(transition('open', 'start_review'), 'in_review');
  assert.equal(transition('in_review', 'return_to_queue'), 'open');
  for (const from of ['open', 'in_review'] as const) {
    for (const e of ['close', 'session_decided', 'session_deleted', 'alert_closed'] as const) assert.equal(transition(from, e), 'closed');
  }
  for (const e of CASE_EVENTS) assert.throws(() => transition('closed', e), IllegalCaseTransition);
  assert.throws(() => transition('open', 'return_to_queue'), IllegalCaseTransition);
  assert.throws(() => transition('in_review', 'start_review'), IllegalCaseTransition);
  assert.deepEqual(Object.keys(TRANSITIONS).sort(), [...CASE_STATES].sort());
});

test("a PATCH target state maps to the reviewer's event, never to a system one", () => {
  assert.equal(reviewerEvent('open', 'in_review'), 'start_review');
  assert.equal(reviewerEvent('in_review', 'open'), 'return_to_queue');
  assert.equal(reviewerEvent('open', 'closed'), 'close');
  assert.equal(reviewerEvent('closed', 'open'), null);
  assert.equal(reviewerEvent('open', 'open'), null);
});
