import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { notFound } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { listEntries, toListEntry } from './repository.js';
import type { ListEntry } from './schemas.js';
import type { Sealer } from '../../platform/crypto.js';

/** Entries are soft-deleted so past screening decisions that relied on them stay explainable. */
export async function deleteListEntry({
  ctx,
  sealer,
  list,
  id,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  list: string;
  id: string;
}): Promise<ListEntry> {
  return withTransaction(ctx, async (tx) => {
    const row = await listEntries.softDelete(tx, ctx, list, id);
    if (!row) throw notFound('list entry', 'id');
    await emitAudit(tx, ctx, {
      action: 'list_entry.deleted',
      resourceType: 'list_entry',
      resourceId: id,
      metadata: { list, kind: row.kind },
    });
    return toListEntry(row, sealer);
  });
}
