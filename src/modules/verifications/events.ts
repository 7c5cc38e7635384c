import { Type } from '@sinclair/typebox';
import { registerEventType } from '../../platform/event-catalog.js';

const CheckEntries = Type.Array(Type.Object({ type: Type.String(), status: Type.String() }));
const Risk = Type.Object({ score: Type.Integer(), band: Type.String() });

registerEventType(
  'verification.completed',
  "A session reached its decision (approved or declined, by the journey's rules or a reviewer).",
  Type.Object({
    id: Type.String({ description: 'Session id.' }),
    subject_reference: Type.String(),
    decision: Type.String({ description: 'approved or declined.' }),
    risk: Risk,
    checks: CheckEntries,
    evidence_bundle_url: Type.String({ description: 'Path of the evidence endpoint, /v1/verifications/{id}/evidence.' }),
  }),
);

registerEventType(
  'verification.referred',
  'Escalation: a session needs a human; it waits in the review queue as a case with a reason code.',
  Type.Object({
    id: Type.String({ description: 'Session id.' }),
    subject_reference: Type.String(),
    case_id: Type.String(),
    reason_code: Type.String({ description: 'The first reason; reason_codes has them all.' }),
    reason_codes: Type.Array(Type.String()),
    risk: Risk,
    checks: CheckEntries,
  }),
);

registerEventType(
  'verification.expired',
  "A session's lifetime ended while it waited on the subject: status expired (nothing captured) or abandoned (capture started, not finished).",
  Type.Object({
    id: Type.String({ description: 'Session id.' }),
    subject_reference: Type.String(),
    status: Type.Union([Type.Literal('expired'), Type.Literal('abandoned')]),
    expires_at: Type.String({ format: 'date-time' }),
  }),
);
