import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

export const TRAVEL_RULE_EVENTS = [
  defineEvent(
    'travel_rule.status_changed',
    'A Travel Rule message moved in its lifecycle: created (draft, sent, saved or received), reviewed, accepted, rejected, repair requested, resent, confirmed with a transaction hash or canceled, by an API call or by the counterparty over TRP.',
    Type.Object({
      id: Type.String({ description: 'Travel Rule message id (trm_…).' }),
      direction: Type.String({ description: 'outgoing or incoming.' }),
      status: Type.String({ description: 'The new status.' }),
      previous_status: Type.Union([Type.String(), Type.Null()], { description: 'Null when the message was created.' }),
      action: Type.String({ description: 'create, send, save, receive, review, accept, reject, request_repair, confirm or cancel.' }),
      protocol: Type.String(),
      request_identifier: Type.String(),
      counterparty_id: Type.Union([Type.String(), Type.Null()]),
      reference: Type.Union([Type.String(), Type.Null()]),
      by: Type.String({ description: 'api (your call), counterparty (over TRP) or system (a job).' }),
    }),
  ),
];
