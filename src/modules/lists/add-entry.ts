import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { withTransaction } from '../../platform/transaction.js';
import { listEntries, presentListEntry } from './repository.js';
import { normalizeListValue } from './normalize.js';
import { protectValue } from './protection.js';
import type { Sealer } from '../../platform/crypto.js';
import type { CreateListEntry, ListEntry } from './schemas.js';

export async function addListEntry({
  ctx,
  sealer,
  list,
  input,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  list: string;
  input: CreateListEntry;
}): Promise<ListEntry> {
  if (list === 'allowlist' && input.kind === 'screening_entity' && !input.subject_reference) {
    throw invalid('subject_reference', 'An allowlist entry for a screening entity must name the subject it clears (subject_reference).');
  }
  if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) throw invalid('expires_at', 'expires_at must be in the future.');
  const normalized = normalizeListValue(input.kind, input.value);
  if (!normalized) throw invalid('value', 'value is empty once normalised.');
  return withTransaction(ctx, async (tx) => {
    const row = await listEntries.insert(tx, ctx, {
      id: newId('listEntry'),
      list,
      kind: input.kind,
      ...protectValue(sealer, ctx, input.kind, input.value, normalized),
      subject_reference: input.subject_reference ?? null,
      reason: input.reason,
      created_by: `${ctx.actor.type}:${ctx.actor.id}`,
      expires_at: input.expires_at ? new Date(input.expires_at) : null,
    });
    await emitAudit(tx, ctx, {
      action: 'list_entry.created',
      resourceType: 'list_entry',
      resourceId: row.id,
      metadata: { list, kind: row.kind, reason: row.reason },
    });
    return presentListEntry(row, { value: input.value, normalized });
  });
}
