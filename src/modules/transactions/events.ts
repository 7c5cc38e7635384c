import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

export const TRANSACTION_EVENTS = [
  defineEvent(
    'transaction.evaluated',
    'A transaction submitted with POST /v1/transactions was evaluated against the published rule set. Emitted only where an enabled webhook destination of the environment subscribes to it (by name or *): the one event per transaction is not stored where nobody listens. Imports are not evaluated and emit nothing.',
    Type.Object({
      id: Type.String(),
      reference: Type.String(),
      subject_reference: Type.String(),
      status: Type.Union([Type.String(), Type.Null()], { description: 'approved, review, block_and_review or declined.' }),
      score: Type.Union([Type.Number(), Type.Null()]),
      ruleset_version: Type.Union([Type.Integer(), Type.Null()]),
      hits: Type.Array(Type.String(), { description: 'Keys of the active rules that hit.' }),
      alert_ids: Type.Array(Type.String(), { description: 'Alerts raised (not deduplicated repeats).' }),
    }),
  ),
];
