import { analyzeChangedTables } from '../../platform/analyze.js';
import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recordUsage } from '../../platform/usage.js';
import { withTransaction } from '../../platform/transaction.js';
import { amountProblem } from '../../engines/rules/index.js';
import { counterpartyKey, MAX_FUTURE_MS } from './create-transaction.js';
import { ImportError, MAX_IMPORT_ROWS, parseImport } from './import-format.js';
import { transactionRows, type NewTransaction } from './repository.js';
import type { ImportTransactions, TransactionImport } from './schemas.js';

/** Rows per INSERT statement (parameters are arrays, so this bounds memory per statement, not parameter count). */
const BATCH = 5_000;

/**
 * POST /v1/transactions/imports: history without evaluation (no rules, alerts or events), so aggregates are
 * warm from day one. All or nothing: any bad row is a 400 naming its line and column, and nothing is stored.
 * References that exist already are skipped (an import can be re-run). The daily rollup is updated in the
 * same database transaction. Billed as one usage record per imported row. After the commit the tables it filled
 * are analysed when they changed by more than autovacuum's threshold (planner statistics for the aggregate reads).
 */
export async function importTransactions({ ctx, input }: { ctx: RequestContext; input: ImportTransactions }): Promise<TransactionImport> {
  const preset = input.preset ?? 'verity';
  let rows;
  try {
    rows = parseImport(input.format, preset, input.data, input.currency ?? 'USD');
  } catch (e) {
    if (e instanceof ImportError) throw invalid('data', `line ${e.line}${e.column ? `, ${e.column}` : ''}: ${e.message}`);
    throw e;
  }
  if (rows.length === 0) throw invalid('data', 'No rows to import.');
  if (rows.length > MAX_IMPORT_ROWS) throw invalid('data', `At most ${MAX_IMPORT_ROWS} transactions per import; split the file.`);
  const seen = new Set<string>();
  const now = Date.now();
  const records: NewTransaction[] = rows.map(({ line, input: r, label }) => {
    const fail = (column: string, msg: string) => invalid('data', `line ${line}, ${column}: ${msg}`);
    const problem = amountProblem(r.amount, r.currency);
    if (problem) throw fail(problem.includes('ISO 4217') ? 'currency' : 'amount', problem);
    const at = new Date(r.occurred_at);
    if (!Number.isFinite(at.getTime()) || at.getTime() > now + MAX_FUTURE_MS) throw fail('occurred_at', 'not a past date-time');
    if (seen.has(r.reference)) throw fail('reference', `reference ${r.reference} appears twice in this import`);
    seen.add(r.reference);
    const country = r.counterparty?.bank_country ?? r.counterparty?.country ?? null;
    return {
      id: newId('transaction'),
      reference: r.reference,
      occurred_at: at,
      amount: r.amount,
      currency: r.currency,
      direction: r.direction,
      type: r.type ?? 'transfer',
      channel: r.channel ?? null,
      subject_reference: r.subject.reference,
      subject: { ...(r.subject.type ? { type: r.subject.type } : {}), ...(r.subject.country ? { country: r.subject.country } : {}) },
      counterparty_key: counterpartyKey(r.counterparty),
      account: r.account ?? null,
      wallet: r.crypto?.wallet ?? null,
      device: r.device ?? null,
      ip: r.ip ?? null,
      country,
      balance_after: r.counterparty?.balance_after ?? null,
      counterparty: r.counterparty ?? null,
      crypto: r.crypto ?? null,
      metadata: r.metadata ?? {},
      source: 'import',
      label_suspicious: label,
      status: null,
      score: null,
      ruleset_version: null,
      evaluation: null,
    };
  });
  const importId = newId('transactionImport');
  let rollupRows = 0;
  const result = await withTransaction(ctx, async (tx) => {
    const inserted: Awaited<ReturnType<typeof transactionRows.insertMany>> = [];
    for (let i = 0; i < records.length; i += BATCH)
      for (const r of await transactionRows.insertMany(tx, ctx, records.slice(i, i + BATCH))) inserted.push(r);
    const imported = inserted.length;
    rollupRows = await transactionRows.addManyToRollup(tx, ctx, inserted);
    if (imported > 0) await recordUsage(tx, ctx, 'transactions', 'import', importId, imported);
    await emitAudit(tx, ctx, {
      action: 'transactions.imported',
      resourceType: 'transaction_import',
      resourceId: importId,
      metadata: { format: input.format, preset, rows: records.length, imported, skipped: records.length - imported },
    });
    return {
      id: importId,
      object: 'transaction_import' as const,
      format: input.format,
      preset,
      received: records.length,
      imported,
      skipped_existing: records.length - imported,
      labelled: rows.filter((r) => r.label !== null).length,
    };
  });
  // Statistics are not data: after the commit, so the sample sees the rows. Without them a table filled by an
  // import keeps the statistics of the empty table where autovacuum is off, and the aggregate reads are planned
  // as over nothing (platform/analyze.ts).
  await analyzeChangedTables(ctx.db, { transactions: result.imported, transaction_daily: rollupRows });
  return result;
}
