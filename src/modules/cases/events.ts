import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

/**
 * No case.opened: the opening of a case is announced by the event that caused it
 * (verification.referred with case_id; screening.rescreening_hit with case_id).
 */
export const CASE_EVENTS = [
  defineEvent(
    'case.updated',
    "A case changed: its state (taken into review, back to the queue, closed by a reviewer, by the session's decision or deletion, or because the alert's entity left its list), owner or severity.",
    Type.Object({
      id: Type.String({ description: 'Case id.' }),
      kind: Type.String({ description: 'verification_review or screening_alert.' }),
      state: Type.String(),
      severity: Type.String(),
      owner: Type.Union([Type.String(), Type.Null()]),
      resolution: Type.Union([Type.String(), Type.Null()]),
      verification_id: Type.Union([Type.String(), Type.Null()]),
      alert_id: Type.Union([Type.String(), Type.Null()]),
      changed: Type.Array(Type.String(), { description: 'What changed: state, owner, severity.' }),
    }),
  ),
];
