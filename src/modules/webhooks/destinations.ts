import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit, diffRecords } from '../../platform/audit.js';
import { invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { checkDestinationUrl, checkResolvedHost, type UrlPolicy } from '../../platform/net-guard.js';
import type { Environment } from '../../platform/context.js';
import { isKnownEventType } from '../../platform/event-catalog.js';
import { withTransaction } from '../../platform/transaction.js';
import { destinations, toDestination } from './repository.js';
import { cancelOpenDeliveries } from './delivery-repository.js';
import type { CreateDestination, Destination, DestinationWithSecret, UpdateDestination } from './schemas.js';

export interface WebhookDeps {
  sealer: Sealer;
  /** The operator's rules for production destinations (sandbox destinations may reach private networks). */
  production: UrlPolicy;
  /** Resolves a host when a production destination is saved (tests give their own). */
  resolveHost?: (host: string) => Promise<string[]>;
}

/**
 * The rules a destination of this environment follows. Production: https and public addresses unless the
 * operator allowed otherwise (WEBHOOK_REQUIRE_HTTPS, WEBHOOK_ALLOW_PRIVATE_NETWORKS; the start banner shows
 * it). Sandbox: http and private networks too, so a developer's local receiver works. Link-local and
 * metadata addresses are refused for both (net-guard).
 */
export function destinationPolicy(environment: Environment, production: UrlPolicy): UrlPolicy {
  return environment === 'sandbox' ? { requireHttps: false, allowPrivateNetworks: true } : production;
}

export const SECRET_PURPOSE = 'webhook-signing-secret';

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

async function checkUrl(url: string, ctx: RequestContext, deps: WebhookDeps): Promise<void> {
  const policy = destinationPolicy(ctx.environment, deps.production);
  const problem = checkDestinationUrl(url, policy) ?? (await checkResolvedHost(url, policy.allowPrivateNetworks, deps.resolveHost));
  if (problem) throw invalid('url', problem);
}

function checkEventTypes(types: string[]): void {
  types.forEach((t, i) => {
    if (t !== '*' && !isKnownEventType(t))
      throw invalid(`event_types[${i}]`, `Unknown event type "${t}". The webhooks section of /openapi.json lists them.`);
  });
}

export async function createDestination({
  ctx,
  input,
  deps,
}: {
  ctx: RequestContext;
  input: CreateDestination;
  deps: WebhookDeps;
}): Promise<DestinationWithSecret> {
  await checkUrl(input.url, ctx, deps);
  checkEventTypes(input.event_types);
  const secret = newSigningSecret();
  return withTransaction(ctx, async (tx) => {
    const row = await destinations.insert(tx, ctx, {
      id: newId('webhook'),
      url: input.url,
      description: input.description ?? null,
      event_types: input.event_types,
      enabled: input.enabled ?? true,
      secret_sealed: deps.sealer.seal(SECRET_PURPOSE, secret),
    });
    await emitAudit(tx, ctx, {
      action: 'webhook_destination.created',
      resourceType: 'webhook_destination',
      resourceId: row.id,
      metadata: { url: row.url, event_types: row.event_types },
    });
    return { ...toDestination(row), secret };
  });
}

export async function updateDestination({
  ctx,
  id,
  input,
  deps,
}: {
  ctx: RequestContext;
  id: string;
  input: UpdateDestination;
  deps: WebhookDeps;
}): Promise<Destination> {
  if (input.url !== undefined) await checkUrl(input.url, ctx, deps);
  if (input.event_types) checkEventTypes(input.event_types);
  return withTransaction(ctx, async (tx) => {
    const before = await destinations.get(tx, ctx, id, true);
    if (!before) throw notFound('webhook destination', 'id');
    const fields: Record<string, unknown> = {};
    if (input.url !== undefined) fields.url = input.url;
    if (input.event_types !== undefined) fields.event_types = input.event_types;
    if (input.description !== undefined) fields.description = input.description;
    if (input.enabled !== undefined) {
      fields.enabled = input.enabled;
      if (input.enabled) Object.assign(fields, { disabled_reason: null, consecutive_failures: 0, failing_since: null });
      else fields.disabled_reason = 'disabled by the caller';
    }
    const after = await destinations.update(tx, ctx, id, fields);
    const pick = (r: typeof before) => ({ url: r.url, event_types: r.event_types, description: r.description, enabled: r.enabled });
    await emitAudit(tx, ctx, {
      action: 'webhook_destination.updated',
      resourceType: 'webhook_destination',
      resourceId: id,
      diff: diffRecords(pick(before), pick(after)),
    });
    return toDestination(after);
  });
}

export async function deleteDestination({ ctx, id }: { ctx: RequestContext; id: string }): Promise<Destination> {
  return withTransaction(ctx, async (tx) => {
    const row = await destinations.get(tx, ctx, id, true);
    if (!row) throw notFound('webhook destination', 'id');
    const deleted = await destinations.update(tx, ctx, id, { deleted_at: new Date(), enabled: false } as never);
    // Pending deliveries to a deleted destination will never succeed: cancel them now.
    await cancelOpenDeliveries(tx, id);
    await emitAudit(tx, ctx, {
      action: 'webhook_destination.deleted',
      resourceType: 'webhook_destination',
      resourceId: id,
      metadata: { url: row.url },
    });
    return toDestination(deleted);
  });
}

/** The new secret signs at once; the previous one keeps signing beside it for the overlap. */
export async function rotateSecret({
  ctx,
  id,
  overlapHours,
  deps,
}: {
  ctx: RequestContext;
  id: string;
  overlapHours: number;
  deps: WebhookDeps;
}): Promise<DestinationWithSecret> {
  const secret = newSigningSecret();
  return withTransaction(ctx, async (tx) => {
    const row = await destinations.get(tx, ctx, id, true);
    if (!row) throw notFound('webhook destination', 'id');
    const after = await destinations.update(tx, ctx, id, {
      secret_sealed: deps.sealer.seal(SECRET_PURPOSE, secret),
      previous_secret_sealed: overlapHours > 0 ? row.secret_sealed : null,
      previous_secret_expires_at: overlapHours > 0 ? new Date(Date.now() + overlapHours * 3_600_000) : null,
    });
    await emitAudit(tx, ctx, {
      action: 'webhook_destination.secret_rotated',
      resourceType: 'webhook_destination',
      resourceId: id,
      metadata: { overlap_hours: overlapHours },
    });
    return { ...toDestination(after), secret };
  });
}
