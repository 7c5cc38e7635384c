import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

/**
 * No case.opened: the opening of a case is announced by the event that caused it
 * (verification.referred with case_id; screening.rescreening_hit with case_id).
 */
export const CASE_EVENTS = [
  defineEvent(
    'case.updated',
    "A case changed: its state (taken into review, back to the queue, closed by a reviewer, by the session's decision or deletion, or because the alert's entity left its list), owner, severity, outcome or snooze.",
    Type.Object({
      id: Type.String({ description: 'Case id.' }),
      kind: Type.String({ description: 'verification_review, screening_alert or alert_review.' }),
      state: Type.String(),
      severity: Type.String(),
      owner: Type.Union([Type.String(), Type.Null()]),
      resolution: Type.Union([Type.String(), Type.Null()]),
      outcome: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'true_positive, false_positive or inconclusive.' })),
      snoozed_until: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      verification_id: Type.Union([Type.String(), Type.Null()]),
      alert_id: Type.Union([Type.String(), Type.Null()]),
      changed: Type.Array(Type.String(), { description: 'What changed: state, owner, severity, outcome, snoozed_until.' }),
    }),
  ),
  defineEvent(
    'alert.created',
    "An alert was raised (a transaction scored review or worse, a rule failed to evaluate, a wallet, business or Travel Rule signal) and attached to its subject's alert_review case (opened if none was open). Repeats within the cooldown are counted on the alert, not announced again.",
    Type.Object({
      id: Type.String({ description: 'Alert id (alt_…).' }),
      object: Type.Literal('alert'),
      kind: Type.String(),
      severity: Type.String(),
      state: Type.String(),
      subject_type: Type.String(),
      subject_id: Type.String(),
      subject_reference: Type.Union([Type.String(), Type.Null()]),
      title: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown()),
      case_id: Type.String(),
      occurrences: Type.Integer(),
      created_at: Type.String(),
      last_seen_at: Type.String(),
      closed_at: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
];
