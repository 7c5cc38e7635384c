import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

const CheckEntries = Type.Array(Type.Object({ type: Type.String(), status: Type.String() }));
const Risk = Type.Object({ score: Type.Integer(), band: Type.String() });

/** The verifications module's events, registered by the entry point (src/modules/index.ts). */
export const VERIFICATION_EVENTS = [
  defineEvent(
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
  ),

  defineEvent(
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
  ),

  defineEvent(
    'verification.expired',
    "A session's lifetime ended while it waited on the subject: status expired (nothing captured) or abandoned (capture started, not finished).",
    Type.Object({
      id: Type.String({ description: 'Session id.' }),
      subject_reference: Type.String(),
      status: Type.Union([Type.Literal('expired'), Type.Literal('abandoned')]),
      expires_at: Type.String({ format: 'date-time' }),
    }),
  ),

  defineEvent(
    'verification.deleted',
    "A session's media and personal data were deleted (DELETE /v1/verifications/{id} or the account's retention period); a tombstone with its status and decision remains.",
    Type.Object({
      id: Type.String({ description: 'Session id.' }),
      status: Type.String(),
      decision: Type.Union([Type.String(), Type.Null()]),
      reason: Type.Union([Type.Literal('request'), Type.Literal('retention')]),
      deleted_at: Type.String({ format: 'date-time' }),
    }),
  ),

  defineEvent(
    'verification.imported',
    'A historical verification was imported from a previous provider (POST /v1/verifications/imports): one event per imported session, never for duplicates. Imports send no verification.completed: they are history, not news.',
    Type.Object({
      id: Type.String({ description: 'Session id.' }),
      import_id: Type.String({ description: 'The import request (vimp_…).' }),
      provider: Type.String(),
      external_id: Type.String({ description: "The previous provider's id." }),
      subject_reference: Type.String(),
      status: Type.String(),
      decision: Type.Union([Type.String(), Type.Null()]),
      created_at: Type.String({ format: 'date-time' }),
      completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  ),
];
