import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';

const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: 'Event types to receive (see the webhooks section of this document); ["*"] for all.',
});

export const CreateDestination = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'https URL that receives POSTs (http and private addresses only where the operator allows them).',
    }),
    event_types: EventTypes,
    description: Type.Optional(Type.String({ maxLength: 500 })),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type CreateDestination = Static<typeof CreateDestination>;

export const UpdateDestination = Type.Object(
  {
    url: Type.Optional(CreateDestination.properties.url),
    event_types: Type.Optional(EventTypes),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    enabled: Type.Optional(
      Type.Boolean({ description: 'Re-enabling a destination that was disabled for failures resets its failure count.' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateDestination = Static<typeof UpdateDestination>;

export const RotateSecret = Type.Object(
  {
    overlap_hours: Type.Optional(
      Type.Number({ minimum: 0, maximum: 168, default: 24, description: 'How long the previous secret keeps signing beside the new one.' }),
    ),
  },
  { additionalProperties: false },
);

export const Destination = Type.Object({
  id: Type.String(),
  object: Type.Literal('webhook_destination'),
  url: Type.String(),
  event_types: Type.Array(Type.String()),
  description: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  consecutive_failures: Type.Integer(),
  last_success_at: Type.Union([Timestamp, Type.Null()]),
  previous_secret_expires_at: Type.Union([Timestamp, Type.Null()], {
    description: 'While set and in the future, the previous secret also signs.',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Destination = Static<typeof Destination>;

export const DestinationWithSecret = Type.Composite([
  Destination,
  Type.Object({ secret: Type.String({ description: 'The signing secret (whsec_…). Shown only in this response.' }) }),
]);
export type DestinationWithSecret = Static<typeof DestinationWithSecret>;

export const Attempt = Type.Object({
  attempt: Type.Integer(),
  started_at: Timestamp,
  duration_ms: Type.Integer(),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  response_excerpt: Type.Union([Type.String(), Type.Null()], { description: 'First 1 KiB of the response body.' }),
});

export const Delivery = Type.Object({
  id: Type.String(),
  object: Type.Literal('webhook_delivery'),
  destination_id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  state: Type.Union(['pending', 'delivering', 'succeeded', 'failed', 'cancelled'].map((s) => Type.Literal(s))),
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Timestamp, Type.Null()]),
  last_status: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  redelivery_of: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  completed_at: Type.Union([Timestamp, Type.Null()]),
  attempt_log: Type.Array(Attempt),
});
export type Delivery = Static<typeof Delivery>;

export const DeliveriesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  destination_id: Type.Optional(Type.String({ maxLength: 64 })),
  event_id: Type.Optional(Type.String({ maxLength: 64 })),
  state: Type.Optional(Type.Union(['pending', 'delivering', 'succeeded', 'failed', 'cancelled'].map((s) => Type.Literal(s)))),
});

export const Event = Type.Object({
  id: Type.String(),
  object: Type.Literal('event'),
  type: Type.String(),
  created_at: Timestamp,
  environment: Type.String(),
  sequence: Type.Integer(),
  resource: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()]),
  data: Type.Record(Type.String(), Type.Unknown()),
});

export const EventsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  type: Type.Optional(Type.String({ maxLength: 100 })),
  resource_id: Type.Optional(Type.String({ maxLength: 64 })),
});
