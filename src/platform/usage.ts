import type { Queryable } from './db.js';
import type { RequestContext } from './context.js';
import { newId } from './ids.js';
import { writeOrDefer } from './transaction.js';

/** Billing period of a moment: the calendar month in UTC, as YYYY-MM. */
export function billingPeriod(at: Date = new Date()): string {
  return at.toISOString().slice(0, 7);
}

/**
 * Records one billable operation in the caller's transaction. Because an idempotent replay
 * returns the stored response without running the transaction again, a replay is never billed.
 */
export async function recordUsage(
  tx: Queryable,
  ctx: RequestContext,
  module: string,
  operation: string,
  resourceId: string | null,
  quantity = 1,
): Promise<void> {
  await writeOrDefer(
    tx,
    'INSERT INTO usage_records (id, account_id, environment, module, operation, resource_id, quantity, period) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [newId('usage'), ctx.accountId, ctx.environment, module, operation, resourceId, quantity, billingPeriod()],
  );
}

/**
 * A tenant's usage in one billing period, summed per UTC day, module and operation (at most 31 days
 * times the operations: the caller sums the period's totals from it, one pass over the period's rows).
 */
export function usageOfPeriod(db: Queryable, ctx: Pick<RequestContext, 'accountId' | 'environment'>, period: string) {
  return db.query<{ day: string; module: string; operation: string; n: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, module, operation, sum(quantity)::int AS n
       FROM usage_records WHERE account_id = $1 AND environment = $2 AND period = $3
      GROUP BY 1, module, operation ORDER BY 1, module, operation`,
    [ctx.accountId, ctx.environment, period],
  );
}
