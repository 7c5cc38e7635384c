import { Type, type TSchema } from '@sinclair/typebox';

/** One event type a module emits: its name, what it means and the schema of its `data`. */
export interface EventDeclaration {
  type: string;
  description: string;
  data: TSchema;
}

/** Declares an event type (no side effect): the module exports it, the entry point registers it. */
export function defineEvent(type: string, description: string, data: TSchema): EventDeclaration {
  return { type, description, data };
}

/** The platform's own events (webhook destinations). */
export const PLATFORM_EVENTS: readonly EventDeclaration[] = [
  defineEvent(
    'webhook.test',
    'Sent by POST /v1/webhooks/{id}/test to that destination only.',
    Type.Object({ destination_id: Type.String(), message: Type.String() }),
  ),
  defineEvent(
    'webhook_destination.disabled',
    "A destination kept failing (see the retry schedule) and was disabled; sent to the tenant's other destinations.",
    Type.Object({
      destination_id: Type.String(),
      url: Type.String(),
      consecutive_failures: Type.Integer(),
      failing_since: Type.String({ format: 'date-time' }),
      reason: Type.String(),
    }),
  ),
];

/**
 * Every event type the service emits, with the schema of its `data`, in the order registered. The
 * OpenAPI document's `webhooks` section and docs/webhooks.md are generated from or checked against
 * it, and `enqueueEvent` refuses a type that is not in it. Filled by `registerEvents`, which the entry
 * points call with the one list of events (`src/modules/index.ts`, `EVENTS`).
 */
export const EVENT_CATALOG: Record<string, { description: string; data: TSchema }> = {};

export function isKnownEventType(type: string): boolean {
  return Object.hasOwn(EVENT_CATALOG, type);
}

/**
 * Registers event declarations. Registering the same declaration again does nothing (several apps in
 * one process); a second, different declaration of one type is a programming error.
 */
export function registerEvents(declarations: readonly EventDeclaration[]): void {
  for (const d of declarations) {
    const known = EVENT_CATALOG[d.type];
    if (known && (known.description !== d.description || known.data !== d.data)) throw new Error(`event type ${d.type} is declared twice`);
    EVENT_CATALOG[d.type] = { description: d.description, data: d.data };
  }
}
