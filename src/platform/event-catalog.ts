import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Every event type the service emits, with the schema of its `data`. The OpenAPI document's
 * `webhooks` section and docs/webhooks.md are generated from or checked against this list, and
 * `enqueueEvent` refuses a type that is not in it.
 */
export const EVENT_CATALOG: Record<string, { description: string; data: TSchema }> = {
  'webhook.test': {
    description: 'Sent by POST /v1/webhooks/{id}/test to that destination only.',
    data: Type.Object({ destination_id: Type.String(), message: Type.String() }),
  },
  'webhook_destination.disabled': {
    description: "A destination kept failing (see the retry schedule) and was disabled; sent to the tenant's other destinations.",
    data: Type.Object({
      destination_id: Type.String(),
      url: Type.String(),
      consecutive_failures: Type.Integer(),
      failing_since: Type.String({ format: 'date-time' }),
      reason: Type.String(),
    }),
  },
};

export function isKnownEventType(type: string): boolean {
  return Object.hasOwn(EVENT_CATALOG, type);
}

/** Modules that emit events register them here at import time. */
export function registerEventType(type: string, description: string, data: TSchema): void {
  EVENT_CATALOG[type] = { description, data };
}
