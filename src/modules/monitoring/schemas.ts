import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';
import { ScreeningHit, ScreeningQueryFields } from '../checks/index.js';

export const EnrolSubject = Type.Object(
  {
    subject_reference: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Your identifier of the subject; one enrolment per reference (enrolling it again updates it).',
    }),
    ...ScreeningQueryFields,
  },
  { additionalProperties: false },
);
export type EnrolSubject = Static<typeof EnrolSubject>;

export const MonitoredSubject = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('monitored_subject'),
    subject_reference: Type.String(),
    name: Type.String(),
    aliases: Type.Array(Type.String()),
    date_of_birth: Type.Union([Type.String(), Type.Null()]),
    countries: Type.Array(Type.String()),
    entity_type: Type.Union([Type.String(), Type.Null()]),
    gender: Type.Union([Type.String(), Type.Null()]),
    identifiers: Type.Array(Type.Object({ type: Type.String(), value: Type.String(), country: Type.Optional(Type.String()) })),
    datasets: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Data sets re-screened (null: all).' }),
    sources: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'List sources re-screened (null: all available to the environment).',
    }),
    threshold: Type.Union([Type.Number(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'MonitoredSubject' },
);
export type MonitoredSubject = Static<typeof MonitoredSubject>;

export const ALERT_STATES = ['open', 'closed'] as const;

export const MonitoringAlert = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('monitoring_alert'),
    monitored_subject_id: Type.String(),
    subject_reference: Type.String(),
    entity_id: Type.String(),
    source: Type.String(),
    snapshot_id: Type.String({ description: 'The list snapshot whose update raised the alert.' }),
    reason: Type.Union([Type.Literal('added'), Type.Literal('changed')], {
      description: 'added: the entity is new on the list; changed: its listing changed (new alias, date of birth…).',
    }),
    score: Type.Number(),
    state: Type.Union(
      ALERT_STATES.map((s) => Type.Literal(s)),
      { description: 'open, or closed (closed_reason entity_removed when the entity left the list).' },
    ),
    closed_reason: Type.Union([Type.String(), Type.Null()]),
    hit: ScreeningHit,
    created_at: Timestamp,
    closed_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'MonitoringAlert' },
);
export type MonitoringAlert = Static<typeof MonitoringAlert>;

const PageFields = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
};
export const SubjectsQuery = Type.Object({ ...PageFields, subject_reference: Type.Optional(Type.String({ maxLength: 200 })) });
export const AlertsQuery = Type.Object({
  ...PageFields,
  state: Type.Optional(Type.Union(ALERT_STATES.map((s) => Type.Literal(s)))),
  subject_reference: Type.Optional(Type.String({ maxLength: 200 })),
  monitored_subject_id: Type.Optional(Type.String({ maxLength: 64 })),
});
