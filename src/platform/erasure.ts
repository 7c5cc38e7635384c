import type { Queryable } from './db.js';
import type { RequestContext } from './context.js';

/** Whose data is being erased: today a verification session (DELETE /v1/verifications/{id} or retention). */
export interface ErasureScope {
  ctx: RequestContext;
  sessionId: string;
}

/**
 * How one owning module erases (or redacts) a subject's data in its own tables, inside the caller's
 * transaction. Returns how many of its rows it touched. The erasing module runs the hooks instead
 * of reaching into other modules' tables.
 */
export interface ErasureHook {
  name: string;
  erase(tx: Queryable, scope: ErasureScope): Promise<number>;
}

/** Runs the hooks one after another, in the order given (lock order stays the same every time). */
export async function runErasureHooks(hooks: readonly ErasureHook[], tx: Queryable, scope: ErasureScope): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const h of hooks) counts[h.name] = await h.erase(tx, scope);
  return counts;
}
