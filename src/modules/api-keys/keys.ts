import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { AppError, conflict, invalid, notFound } from '../../platform/errors.js';
import { createApiKey, revokeTenantApiKey, type ApiKeyRecord } from '../../platform/api-keys.js';
import { hasScope, isScope } from '../../platform/scopes.js';
import { withTransaction } from '../../platform/transaction.js';
import type { ApiKey, ApiKeyWithSecret, CreateApiKey } from './schemas.js';

export function toApiKey(r: ApiKeyRecord): ApiKey {
  return {
    id: r.id,
    object: 'api_key',
    name: r.name,
    display: r.display,
    environment: r.environment,
    scopes: r.scopes,
    created_by: r.created_by_type && r.created_by_id ? { type: r.created_by_type, id: r.created_by_id } : null,
    created_at: r.created_at.toISOString(),
    revoked_at: r.revoked_at ? r.revoked_at.toISOString() : null,
  };
}

/** Whether the caller holds every one of `scopes` (`*` only from a caller holding `*`): nobody grants more than they have. */
export function holdsAll(callerScopes: readonly string[], scopes: readonly string[]): boolean {
  return scopes.every((s) => (s === '*' ? callerScopes.includes('*') : isScope(s) && hasScope(callerScopes, s)));
}

/**
 * Makes a key in the caller's own account and environment (a sandbox principal never mints a
 * production key). Scopes must come from the catalogue (400) and be held by the caller (403).
 */
export async function createKey({ ctx, input }: { ctx: RequestContext; input: CreateApiKey }): Promise<ApiKeyWithSecret> {
  const unknown = input.scopes.filter((s) => s !== '*' && !isScope(s));
  if (unknown.length > 0)
    throw invalid(
      'scopes',
      `Unknown scope(s): ${unknown.join(', ')}. /v1/api-keys accepts <module>:read, <module>:write, rules:publish and *.`,
    );
  if (!holdsAll(ctx.scopes, input.scopes)) {
    const missing = input.scopes.filter((s) => !holdsAll(ctx.scopes, [s]));
    throw new AppError('insufficient_scope', `A key may grant only scopes its creator holds; you lack ${missing.join(', ')}.`, {
      field: 'scopes',
    });
  }
  return withTransaction(ctx, async (tx) => {
    const { key, record } = await createApiKey(tx, {
      accountId: ctx.accountId,
      environment: ctx.environment,
      name: input.name,
      scopes: input.scopes,
      createdBy: { type: ctx.actor.type, id: ctx.actor.id },
    });
    await emitAudit(tx, ctx, {
      action: 'api_key.created',
      resourceType: 'api_key',
      resourceId: record.id,
      metadata: { name: record.name, display: record.display, scopes: record.scopes },
    });
    return { ...toApiKey(record), secret: key };
  });
}

/**
 * Revokes a key of the caller's account and environment; revoking a revoked key answers it unchanged.
 * A key does not revoke itself (409: rotate by making the new key, switching, then revoking the old
 * one with the new), and a caller may revoke only a key whose scopes it holds (403: a narrow key
 * cannot lock out a broader one). `revoked` runs after the commit (the process's key cache).
 */
export async function revokeKey({ ctx, id, revoked }: { ctx: RequestContext; id: string; revoked: () => void }): Promise<ApiKey> {
  if (ctx.actor.type === 'api_key' && ctx.actor.id === id)
    throw conflict('A key cannot revoke itself: revoke it with another key or from the console.', 'id');
  const result = await withTransaction(ctx, async (tx) => {
    const r = await revokeTenantApiKey(tx, ctx, id);
    if (!r) throw notFound('API key', 'id');
    if (!holdsAll(ctx.scopes, r.before.scopes))
      throw new AppError(
        'insufficient_scope',
        'This key holds scopes you lack; a key may be revoked only by a principal holding all of them.',
        {
          field: 'id',
        },
      );
    if (!r.before.revoked_at) {
      await emitAudit(tx, ctx, {
        action: 'api_key.revoked',
        resourceType: 'api_key',
        resourceId: id,
        metadata: { name: r.after.name, display: r.after.display },
      });
    }
    return toApiKey(r.after);
  });
  revoked();
  return result;
}
