import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from '../errors.js';

/** The dotted path of the first string holding U+0000 in a parsed value, or null ("names[2].given"). */
export function findNul(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], `${path}[${i}]`, depth + 1);
      if (hit !== null) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = k.includes('\u0000') ? `${path ? `${path}.` : ''}${k.replace(/\u0000/g, '\\u0000')}` : null;
    if (key !== null) return key;
    const hit = findNul(v, path ? `${path}.${k}` : k, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

/**
 * PostgreSQL cannot store U+0000 in text, so a NUL anywhere in a path parameter, query value or body
 * string would fail deep in a query as a 500. One hook refuses it before validation, naming the field.
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    for (const [part, value] of [
      ['path', req.params],
      ['query', req.query],
      ['body', req.body],
    ] as const) {
      const at = findNul(value);
      if (at !== null) throw invalid(at || part, `${at || part} contains a NUL character (U+0000), which this service does not accept.`);
    }
  });
}

/**
 * A route that declares no body schema takes no body: anything but nothing (or an empty object, which
 * many clients send with every POST) is refused rather than silently ignored, so a client that sends
 * fields to the wrong operation learns it.
 */
export function refuseUnexpectedBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) || (route.schema as { body?: unknown } | undefined)?.body)
      return;
    const guard = async (req: FastifyRequest) => {
      const b = req.body;
      // A raw-body route (an upload whose parser hands over the bytes) declares its body outside the schema.
      if (b === undefined || b === null || Buffer.isBuffer(b)) return;
      if (typeof b === 'object' && !Array.isArray(b) && Object.keys(b).length === 0) return;
      throw invalid('body', `${req.method} ${route.url} takes no body; send none (or {}).`);
    };
    const existing = route.preValidation;
    route.preValidation = existing ? [guard, ...(Array.isArray(existing) ? existing : [existing])] : guard;
  });
}
