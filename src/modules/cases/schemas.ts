import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';
import { PageQuery } from '../../platform/pagination.js';
import { CASE_STATES } from './state-machine.js';
import { SEVERITIES } from './severity.js';

export const CASE_KINDS = ['verification_review', 'screening_alert', 'alert_review'] as const;
/**
 * Kinds of generic alert (cases/alerts.ts raiseAlert). Stored as text without a CHECK: a pillar adds
 * its kind here (and documents it) without a migration.
 */
export const ALERT_KINDS = [
  'transaction_rule',
  'rule_error',
  'wallet_risk',
  'business_ownership',
  'business_screening',
  'travel_rule',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
/** How an alert or alert review case ended (set when closing): the hit was real, was not, or could not be told. */
export const CASE_OUTCOMES = ['true_positive', 'false_positive', 'inconclusive'] as const;
export type CaseOutcome = (typeof CASE_OUTCOMES)[number];
export type CaseKind = (typeof CASE_KINDS)[number];
const lit = <T extends string>(xs: readonly T[], o: object = {}) =>
  Type.Union(
    xs.map((x) => Type.Literal(x)),
    o,
  );
const Owner = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'A reviewer identifier in your own tool (e.g. an e-mail or user id).',
});

export const Alert = Type.Object(
  {
    id: Type.String({ description: 'Alert id (alt_…).' }),
    object: Type.Literal('alert'),
    kind: Type.String({
      description:
        'transaction_rule (a transaction scored review or worse), rule_error (a rule failed to evaluate), wallet_risk, business_ownership, business_screening, travel_rule.',
    }),
    severity: lit(SEVERITIES),
    state: lit(['open', 'closed'] as const, { description: 'open; closed when its case was closed.' }),
    subject_type: Type.String({
      description: 'What the alert is about: customer (a subject reference), rule, wallet, business, travel_rule_message…',
    }),
    subject_id: Type.String(),
    subject_reference: Type.Union([Type.String(), Type.Null()]),
    title: Type.String(),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What raised it (for transaction_rule: the transaction, score and rule hits).',
    }),
    case_id: Type.String({ description: 'The alert_review case it is attached to.' }),
    occurrences: Type.Integer({
      description: 'How many times it was raised: repeats within the cooldown are counted here, not raised again.',
    }),
    created_at: Timestamp,
    last_seen_at: Timestamp,
    closed_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'Alert' },
);
export type Alert = Static<typeof Alert>;

export const Case = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('case'),
    kind: lit(CASE_KINDS, {
      description:
        'verification_review: a referred session waiting for a decision; screening_alert: a monitoring alert (a new list hit for an enrolled subject); alert_review: the alerts of one subject (transaction rules, rule errors, wallets, businesses, Travel Rule).',
    }),
    state: lit(CASE_STATES, { description: 'open (in the queue), in_review (owned and being worked on), closed.' }),
    severity: lit(SEVERITIES),
    owner: Type.Union([Type.String(), Type.Null()]),
    reason_code: Type.String({ description: 'The first reason: a verification reason code, or rescreening_added / rescreening_changed.' }),
    reason_codes: Type.Array(Type.String()),
    subject_reference: Type.Union([Type.String(), Type.Null()], { description: 'Null once the session was deleted.' }),
    verification_id: Type.Union([Type.String(), Type.Null()]),
    alert_id: Type.Union([Type.String(), Type.Null()], { description: 'screening_alert cases: the monitoring alert.' }),
    subject_type: Type.String({
      description: "verification, monitoring_alert, or for alert_review cases the alerts' subject type (customer, rule, wallet…).",
    }),
    subject_id: Type.String(),
    alert_count: Type.Integer({ description: 'alert_review cases: how many alerts are attached.' }),
    alerts: Type.Array(Alert, { description: 'alert_review cases: the latest 20 alerts, newest first (empty for other kinds).' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    closed_at: Type.Union([Timestamp, Type.Null()]),
    resolution: Type.Union([Type.String(), Type.Null()], {
      description: "How it was closed: the reviewer's note, decision: approved|declined, deleted, or entity_removed.",
    }),
    outcome: Type.Union([lit(CASE_OUTCOMES), Type.Null()], {
      description: 'Set when a reviewer closed an alert or alert review case: true_positive, false_positive or inconclusive.',
    }),
    snoozed_until: Type.Union([Timestamp, Type.Null()], {
      description: 'While in the future, the case stays open but is out of the queue (snoozed=false) and of claim next.',
    }),
    transitions: Type.Optional(
      Type.Array(
        Type.Object({
          from: Type.Union([lit(CASE_STATES), Type.Null()]),
          to: lit(CASE_STATES),
          event: Type.String(),
          actor: Type.String(),
          at: Timestamp,
        }),
        { description: 'GET /v1/cases/{id} and PATCH only: every state change, oldest first (the first is the opening).' },
      ),
    ),
  },
  { title: 'Case' },
);
export type Case = Static<typeof Case>;

export const CasesQuery = Type.Object({
  ...PageQuery.properties,
  state: Type.Optional(lit(CASE_STATES)),
  kind: Type.Optional(
    lit([...CASE_KINDS, ...ALERT_KINDS], {
      description: 'A case kind, or an alert kind (alert_review cases holding at least one alert of that kind).',
    }),
  ),
  subject_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  owner: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Cases owned by this reviewer; `none` for unassigned cases.' }),
  ),
  severity: Type.Optional(lit(SEVERITIES)),
  created_gte: Type.Optional(Type.String({ format: 'date-time', description: 'Cases opened at or after this moment.' })),
  created_lt: Type.Optional(Type.String({ format: 'date-time', description: 'Cases opened before this moment.' })),
  verification_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  snoozed: Type.Optional(
    Type.Boolean({ description: 'true: only cases snoozed until a future moment; false: only cases not snoozed (the queue).' }),
  ),
});
export type CasesQuery = Static<typeof CasesQuery>;

export const UpdateCase = Type.Object(
  {
    state: Type.Optional(
      lit(CASE_STATES, {
        description:
          "in_review (needs an owner), open (back to the queue) or closed (needs resolution; screening alerts only: a review case closes with its session's decision).",
      }),
    ),
    owner: Type.Optional(Type.Union([Owner, Type.Null()], { description: 'Assign (a reviewer identifier) or unassign (null).' })),
    severity: Type.Optional(lit(SEVERITIES)),
    resolution: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'Required when closing: how the case was resolved. Kept in the audit trail: do not repeat personal data here.',
      }),
    ),
    outcome: Type.Optional(
      lit(CASE_OUTCOMES, { description: 'Only when closing an alert or alert review case (state closed): how it ended.' }),
    ),
    snoozed_until: Type.Optional(
      Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description:
          'Snooze an open or in-review case until this moment (in the future, at most 90 days ahead); null wakes it. Closing clears it.',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCase = Static<typeof UpdateCase>;

export const ClaimCase = Type.Object(
  {
    kind: Type.Optional(lit(CASE_KINDS, { description: 'Claim only a case of this kind.' })),
    severity: Type.Optional(lit(SEVERITIES, { description: 'Claim only a case of this severity.' })),
    owner: Type.Optional({
      ...Owner,
      description: 'API keys: the reviewer in your own tool (default api_key:<id>). A console operator always claims for themself.',
    }),
  },
  { additionalProperties: false },
);
export type ClaimCase = Static<typeof ClaimCase>;

export const CaseClaim = Type.Object(
  {
    object: Type.Literal('case_claim'),
    case: Type.Union([Case, Type.Null()], {
      description: 'The claimed case, now in_review and owned by the caller; null when no case waits.',
    }),
  },
  { title: 'CaseClaim' },
);
export type CaseClaim = Static<typeof CaseClaim>;

export const BacklogQuery = Type.Object(
  {
    sla_hours: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 8760, default: 24, description: 'A case open longer than this is past the SLA.' }),
    ),
  },
  { additionalProperties: false },
);
export type BacklogQuery = Static<typeof BacklogQuery>;

export const CaseBacklog = Type.Object(
  {
    object: Type.Literal('case_backlog'),
    sla_hours: Type.Integer(),
    cutoff: Type.String({ format: 'date-time', description: 'Open cases created before this moment are past the SLA.' }),
    open: Type.Integer({ description: 'Open cases (in the queue, unclaimed or not).' }),
    past_sla: Type.Integer(),
    kinds: Type.Array(
      Type.Object({
        kind: Type.String({
          description:
            'A case kind, or an alert kind: alert_review cases holding at least one alert of it (a case with alerts of two kinds counts under both), as the kind filter of GET /v1/cases.',
        }),
        open: Type.Integer(),
        past_sla: Type.Integer(),
        oldest_created_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      }),
    ),
  },
  { title: 'CaseBacklog' },
);
export type CaseBacklog = Static<typeof CaseBacklog>;

export const CreateCaseComment = Type.Object(
  {
    body: Type.String({
      minLength: 1,
      maxLength: 4000,
      pattern: '\\S',
      description: 'The note. Kept with the case, not in the audit log (the audit row names the comment id).',
    }),
  },
  { additionalProperties: false },
);
export type CreateCaseComment = Static<typeof CreateCaseComment>;

export const CaseComment = Type.Object(
  {
    id: Type.String({ description: 'Comment id (cmt_…).' }),
    object: Type.Literal('case_comment'),
    case_id: Type.String(),
    author: Type.Object({ type: Type.String(), id: Type.String() }, { description: 'The operator or API key that wrote it.' }),
    body: Type.String(),
    created_at: Timestamp,
  },
  { title: 'CaseComment' },
);
export type CaseComment = Static<typeof CaseComment>;
