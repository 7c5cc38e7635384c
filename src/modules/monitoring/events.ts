import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

export const RESCREENING_HIT = 'screening.rescreening_hit';

export const MONITORING_EVENTS = [
  defineEvent(
    RESCREENING_HIT,
    'A list update (import or sync) gave a monitored subject a new hit; a monitoring alert was raised.',
    Type.Object({
      alert_id: Type.String(),
      monitored_subject_id: Type.String(),
      subject_reference: Type.String(),
      entity_id: Type.String(),
      source: Type.String(),
      names: Type.Array(Type.String()),
      datasets: Type.Array(Type.String()),
      programs: Type.Array(Type.String()),
      score: Type.Number(),
      reason: Type.Union([Type.Literal('added'), Type.Literal('changed')]),
      snapshot_id: Type.String(),
      case_id: Type.String({ description: 'The screening_alert case the alert is worked in (GET /v1/cases/{id}).' }),
    }),
  ),
];
