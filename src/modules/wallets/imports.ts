import type { RequestContext } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueJob } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { withTransaction } from '../../platform/transaction.js';
import { runInOneOffWorker, workerFileUrl } from '../../platform/worker-pool.js';
import { parseAddress, parseAmount } from '../../engines/wallets/index.js';
import { parseAttributionLines, parseTransferLines, tryAddress, type LineError, type ParsedImport } from './import-parse.js';
import type { ImportParseTask } from './import-parse-worker.js';
import type { WalletIndexes } from './indexes.js';
import { toImport, walletData, type NewAttribution, type NewTransfer } from './repository.js';
import type { ImportAttributionsBody, ImportTransfersBody, WalletImport } from './schemas.js';

// Operator data imports: attribution lists and known transfers, as CSV (header line) or JSON lines.
// Each data line is checked on its own; errors name the line (1-based, as in the file). With
// on_error=reject (default) one bad line rejects the file and nothing is written; with skip the good
// lines are written and the bad ones reported. Either way the write is one transaction.

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

/** Most keys a re-screen job names; beyond it the job re-screens every active monitor of the tenant. */
const MAX_JOB_KEYS = 10_000;
const MAX_ERRORS = 100;

/**
 * Up to this size (about 170 transfer lines) an import is parsed on the calling thread: 1,300 lines
 * (125 kB) took 36-213 ms on this machine at load 47, so 16 kB stays within a few milliseconds.
 */
export const INLINE_MAX_CHARS = 16 * 1024;

/** A hung parse is ended after this (a million lines parse in well under a minute). */
const PARSE_TIMEOUT_MS = 10 * 60_000;

/**
 * Parses and checks an import's lines in a one-shot worker thread (as list imports do): a large file
 * costs seconds of CPU (CSV, address checksums, amounts) that would otherwise stall every request of
 * the API process. Imports are rare: one worker per call, ended after. Files up to INLINE_MAX_CHARS are
 * parsed in place (a worker costs more to start than they cost to parse).
 */
export async function parseImportOffThread(task: { kind: 'attributions'; content: string }): Promise<ParsedImport<NewAttribution>>;
export async function parseImportOffThread(task: { kind: 'transfers'; content: string }): Promise<ParsedImport<NewTransfer>>;
export async function parseImportOffThread(task: ImportParseTask): Promise<ParsedImport<NewAttribution | NewTransfer>> {
  // A small file parses in a few milliseconds, less than a worker takes to start: parsed here.
  if (task.content.length <= INLINE_MAX_CHARS)
    return task.kind === 'attributions' ? parseAttributionLines(task.content) : parseTransferLines(task.content);
  return runInOneOffWorker<ImportParseTask, ParsedImport<NewAttribution | NewTransfer>>(
    { file: workerFileUrl(import.meta.url, './import-parse-worker.js'), name: 'wallet-import-parse', taskTimeoutMs: PARSE_TIMEOUT_MS },
    task,
  );
}

function rejectOrKeep(errors: LineError[], onError: 'reject' | 'skip' | undefined, dataLines: number): void {
  if (dataLines === 0) throw invalid('content', 'content has no data lines.');
  if (errors.length && (onError ?? 'reject') === 'reject') {
    const shown = errors
      .slice(0, 10)
      .map((e) => `line ${e.line}: ${e.message}`)
      .join('; ');
    throw invalid('content', `${errors.length} bad line(s), nothing imported (on_error=skip imports the good ones): ${shown}`);
  }
}

async function enqueueRescreen(tx: Queryable, t: Tenant, keys: Set<string>, depth: number): Promise<void> {
  await enqueueJob(tx, QUEUES.walletsRescreen, {
    kind: 'keys',
    account_id: t.accountId,
    environment: t.environment,
    depth,
    ...(keys.size > MAX_JOB_KEYS ? { all: true, keys: [] } : { keys: [...keys] }),
  });
}

/**
 * `indexes`: the process's WALLET_INDEXES, told at once that the tenant's rows changed; null where the
 * process holds none (the CLI), whose import other processes see within their refresh period.
 */
export async function importAttributions(
  ctx: RequestContext,
  body: ImportAttributionsBody,
  indexes: WalletIndexes | null,
): Promise<WalletImport> {
  const { lines, errors, rows, keys } = await parseImportOffThread({ kind: 'attributions', content: body.content });
  rejectOrKeep(errors, body.on_error, lines);
  const result = await withTransaction(ctx, async (tx) => {
    const id = newId('walletImport');
    const row = await walletData.insertImport(tx, ctx, {
      id,
      kind: 'attributions',
      list: body.list,
      lines: lines,
      imported: rows.length,
      errors: errors.slice(0, MAX_ERRORS),
    });
    await walletData.insertAttributions(tx, ctx, id, body.list, rows);
    await emitAudit(tx, ctx, {
      action: 'wallet_import.created',
      resourceType: 'wallet_import',
      resourceId: id,
      metadata: { kind: 'attributions', list: body.list, lines: lines, imported: rows.length, rejected: errors.length },
    });
    // A new attribution changes the direct exposure of its address and the indirect exposure within N hops.
    if (keys.length) await enqueueRescreen(tx, ctx, new Set(keys), 2);
    return toImport(row, errors.length);
  });
  indexes?.invalidateTenant(ctx);
  return result;
}

export async function importTransfers(
  ctx: RequestContext,
  body: ImportTransfersBody,
  indexes: WalletIndexes | null,
): Promise<WalletImport> {
  const { lines, errors, rows, keys } = await parseImportOffThread({ kind: 'transfers', content: body.content });
  rejectOrKeep(errors, body.on_error, lines);
  const result = await withTransaction(ctx, async (tx) => {
    const id = newId('walletImport');
    const row = await walletData.insertImport(tx, ctx, {
      id,
      kind: 'transfers',
      list: null,
      lines: lines,
      imported: rows.length,
      errors: errors.slice(0, MAX_ERRORS),
    });
    await walletData.insertTransfers(tx, ctx, id, rows);
    await emitAudit(tx, ctx, {
      action: 'wallet_import.created',
      resourceType: 'wallet_import',
      resourceId: id,
      metadata: { kind: 'transfers', lines: lines, imported: rows.length, rejected: errors.length },
    });
    // A new transfer a→b changes the exposure of a, b and every address one hop from them (at 2 hops).
    if (keys.length) await enqueueRescreen(tx, ctx, new Set(keys), 1);
    return toImport(row, errors.length);
  });
  indexes?.invalidateTenant(ctx);
  return result;
}

/**
 * For KYT: records crypto transactions as known transfers in the caller's transaction and queues the
 * re-screen of the monitors they can affect. Addresses that do not parse on the chain are skipped and returned.
 */
export async function recordKnownTransfers(
  tx: Queryable,
  ctx: Tenant,
  source: string,
  transfers: Array<{ chain: string; asset?: string; txHash?: string; from: string; to: string; amount: string }>,
): Promise<{ recorded: number; skipped: Array<{ index: number; reason: string }> }> {
  const rows: Parameters<typeof walletData.insertTransfers>[3] = [];
  const skipped: Array<{ index: number; reason: string }> = [];
  const keys = new Set<string>();
  transfers.forEach((t, index) => {
    const bad = tryAddress(t.from, t.chain) ?? tryAddress(t.to, t.chain);
    if (bad) return void skipped.push({ index, reason: bad });
    try {
      parseAmount(t.amount);
    } catch (e) {
      return void skipped.push({ index, reason: (e as Error).message });
    }
    keys.add(parseAddress(t.from, t.chain).address.keys[0]!);
    keys.add(parseAddress(t.to, t.chain).address.keys[0]!);
    rows.push({ chain: t.chain, asset: t.asset ?? null, tx_hash: t.txHash ?? null, from: t.from, to: t.to, amount: t.amount });
  });
  if (rows.length) {
    await walletData.insertTransfers(tx, ctx, source, rows);
    await enqueueRescreen(tx, ctx, keys, 1);
  }
  return { recorded: rows.length, skipped };
}
