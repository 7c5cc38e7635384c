import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SESSION_EVENTS,
  SESSION_STATES,
  TERMINAL_STATES,
  IllegalTransition,
  transition,
  effectiveState,
  lifetimeEvent,
  type SessionEvent,
  type SessionState,
} from './state-machine.js';

// The transition table written out independently of TRANSITIONS: every pair not listed is illegal.
const LEGAL: Record<string, SessionState> = {
  'created token_issued': 'awaiting_subject',
  'created lifetime_elapsed': 'expired',
  'created cancelled': 'expired',
  'awaiting_subject capture_started': 'awaiting_subject',
  'awaiting_subject capture_submitted': 'processing',
  'awaiting_subject lifetime_elapsed': 'expired',
  'awaiting_subject lifetime_elapsed_after_capture': 'abandoned',
  'awaiting_subject cancelled': 'expired',
  'awaiting_subject cancelled_after_capture': 'abandoned',
  'processing checks_passed': 'approved',
  'processing checks_failed': 'declined',
  'processing review_required': 'referred',
  'referred manual_approve': 'approved',
  'referred manual_decline': 'declined',
};

test('every state × every event: the legal moves and only those', () => {
  let legal = 0;
  for (const s of SESSION_STATES) {
    for (const e of SESSION_EVENTS) {
      const want = LEGAL[`${s} ${e}`];
      if (want) {
        assert.equal(transition(s, e), want, `${s} --${e}-->`);
        legal++;
      } else {
        assert.throws(
          () => transition(s, e as SessionEvent),
          (err: unknown) => err instanceof IllegalTransition && err.from === s && err.event === e,
          `${s} --${e}--> must be illegal`,
        );
      }
    }
  }
  assert.equal(legal, Object.keys(LEGAL).length);
});

test('approved, declined, abandoned and expired are terminal; referred is not', () => {
  assert.deepEqual([...TERMINAL_STATES].sort(), ['abandoned', 'approved', 'declined', 'expired']);
});

test('every state is reachable from created', () => {
  const seen = new Set<SessionState>(['created']);
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of [...seen])
      for (const e of SESSION_EVENTS) {
        try {
          const n = transition(s, e);
          if (!seen.has(n)) {
            seen.add(n);
            grew = true;
          }
        } catch {
          /* illegal */
        }
      }
  }
  assert.deepEqual([...seen].sort(), [...SESSION_STATES].sort());
});

test('reads at the expiry boundary: expired or abandoned exactly from expires_at on, only while waiting', () => {
  const at = new Date('2026-11-21T10:00:00Z');
  const before = new Date(at.getTime() - 1);
  assert.equal(effectiveState({ status: 'awaiting_subject', expires_at: at, capture_started_at: null }, before), 'awaiting_subject');
  assert.equal(effectiveState({ status: 'awaiting_subject', expires_at: at, capture_started_at: null }, at), 'expired');
  assert.equal(effectiveState({ status: 'awaiting_subject', expires_at: at, capture_started_at: before }, at), 'abandoned');
  assert.equal(effectiveState({ status: 'processing', expires_at: at, capture_started_at: before }, at), 'processing');
  assert.equal(effectiveState({ status: 'referred', expires_at: at, capture_started_at: before }, at), 'referred');
  assert.equal(lifetimeEvent(true), 'lifetime_elapsed_after_capture');
});
