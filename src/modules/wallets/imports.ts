import type { RequestContext } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueJob } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { withTransaction } from '../../platform/transaction.js';
import { parseCsv } from '../../providers/lists/csv.js';
import { AddressError, isCategory, parseAddress, parseAmount, resolveChainName, CATEGORIES } from '../../engines/wallets/index.js';
import { walletIndexesFor } from './indexes.js';
import { toImport, walletData, type NewAttribution, type NewTransfer } from './repository.js';
import type { ImportAttributionsBody, ImportTransfersBody, WalletImport } from './schemas.js';

// Operator data imports: attribution lists and known transfers, as CSV (header line) or JSON lines.
// Each data line is checked on its own; errors name the line (1-based, as in the file). With
// on_error=reject (default) one bad line rejects the file and nothing is written; with skip the good
// lines are written and the bad ones reported. Either way the write is one transaction.

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;
type Rec = Record<string, string | undefined>;
interface LineError {
  line: number;
  message: string;
}

/** Most keys a re-screen job names; beyond it the job re-screens every active monitor of the tenant. */
const MAX_JOB_KEYS = 10_000;
const MAX_ERRORS = 100;

/** Data lines with their line numbers, as records keyed by lower-case column name. */
export function readRecords(text: string): Array<{ line: number; rec: Rec } | LineError> {
  const lines = text.split(/\r?\n/);
  const out: Array<{ line: number; rec: Rec } | LineError> = [];
  let header: string[] | null = null;
  let json: boolean | null = null;
  lines.forEach((raw, i) => {
    const line = i + 1;
    const l = raw.trim();
    if (!l || l.startsWith('#')) return;
    json ??= l.startsWith('{');
    if (json) {
      try {
        const obj = JSON.parse(l) as unknown;
        if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error('not a JSON object');
        const rec: Rec = {};
        for (const [k, v] of Object.entries(obj as Record<string, unknown>))
          if (v !== null && v !== undefined)
            rec[k.toLowerCase()] = typeof v === 'string' ? v.trim() : JSON.stringify(v).replace(/^"|"$/g, '');
        out.push({ line, rec });
      } catch (e) {
        out.push({ line, message: `not a JSON object (${(e as Error).message})` });
      }
      return;
    }
    const cells = parseCsv(raw)[0] ?? [];
    if (!header) {
      header = cells.map((h) => h.trim().toLowerCase());
      return;
    }
    out.push({ line, rec: Object.fromEntries(header.map((h, j) => [h, cells[j]?.trim() || undefined])) });
  });
  return out;
}

function tryAddress(value: string, chain: string): string | null {
  try {
    parseAddress(value, chain);
    return null;
  } catch (e) {
    if (e instanceof AddressError) return `${e.reason}: ${e.message}`;
    throw e;
  }
}

function knownChain(chain: string): boolean {
  try {
    resolveChainName(chain);
    return true;
  } catch {
    return false;
  }
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

export async function importAttributions(ctx: RequestContext, body: ImportAttributionsBody): Promise<WalletImport> {
  const records = readRecords(body.content);
  const errors: LineError[] = [];
  const rows: NewAttribution[] = [];
  const keys = new Set<string>();
  for (const r of records) {
    if ('message' in r) {
      errors.push(r);
      continue;
    }
    const { chain, address, category } = r.rec;
    const missing = (['chain', 'address', 'category'] as const).filter((f) => !r.rec[f]);
    if (missing.length) {
      errors.push({ line: r.line, message: `${missing.join(', ')} required` });
      continue;
    }
    if (!isCategory(category!)) {
      errors.push({ line: r.line, message: `category "${category}" is not one of ${CATEGORIES.join(', ')}` });
      continue;
    }
    if (!knownChain(chain!)) {
      errors.push({ line: r.line, message: `chain "${chain}" is unknown` });
      continue;
    }
    const bad = tryAddress(address!, chain!);
    if (bad) {
      errors.push({ line: r.line, message: `address: ${bad}` });
      continue;
    }
    keys.add(parseAddress(address!, chain!).address.keys[0]!);
    rows.push({
      chain: chain!,
      address: address!,
      category: category!,
      entity_id: r.rec.entity_id ?? null,
      entity_name: r.rec.entity ?? r.rec.entity_name ?? null,
      source: r.rec.source ?? null,
    });
  }
  rejectOrKeep(errors, body.on_error, records.length);
  const result = await withTransaction(ctx, async (tx) => {
    const id = newId('walletImport');
    const row = await walletData.insertImport(tx, ctx, {
      id,
      kind: 'attributions',
      list: body.list,
      lines: records.length,
      imported: rows.length,
      errors: errors.slice(0, MAX_ERRORS),
    });
    await walletData.insertAttributions(tx, ctx, id, body.list, rows);
    await emitAudit(tx, ctx, {
      action: 'wallet_import.created',
      resourceType: 'wallet_import',
      resourceId: id,
      metadata: { kind: 'attributions', list: body.list, lines: records.length, imported: rows.length, rejected: errors.length },
    });
    // A new attribution changes the direct exposure of its address and the indirect exposure within N hops.
    if (keys.size) await enqueueRescreen(tx, ctx, keys, 2);
    return toImport(row, errors.length);
  });
  walletIndexesFor(ctx.db).invalidateTenant(ctx);
  return result;
}

export async function importTransfers(ctx: RequestContext, body: ImportTransfersBody): Promise<WalletImport> {
  const records = readRecords(body.content);
  const errors: LineError[] = [];
  const rows: NewTransfer[] = [];
  const keys = new Set<string>();
  for (const r of records) {
    if ('message' in r) {
      errors.push(r);
      continue;
    }
    const rec = r.rec;
    const amount = rec.amount ?? rec.value;
    const txHash = rec.tx_hash ?? rec.txhash ?? rec.hash ?? null;
    const missing: string[] = (['chain', 'from', 'to'] as const).filter((f) => !rec[f]);
    if (!amount) missing.push('amount');
    if (missing.length) {
      errors.push({ line: r.line, message: `${missing.join(', ')} required` });
      continue;
    }
    const chain = rec.chain!;
    if (!knownChain(chain)) {
      errors.push({ line: r.line, message: `chain "${chain}" is unknown` });
      continue;
    }
    const badFrom = tryAddress(rec.from!, chain);
    const badTo = badFrom ? null : tryAddress(rec.to!, chain);
    if (badFrom || badTo) {
      errors.push({ line: r.line, message: badFrom ? `from: ${badFrom}` : `to: ${badTo}` });
      continue;
    }
    try {
      if (parseAmount(amount!) === 0n) throw new Error('amount must be greater than 0');
    } catch (e) {
      errors.push({ line: r.line, message: `amount: ${(e as Error).message}` });
      continue;
    }
    keys.add(parseAddress(rec.from!, chain).address.keys[0]!);
    keys.add(parseAddress(rec.to!, chain).address.keys[0]!);
    rows.push({ chain, asset: rec.asset ?? null, tx_hash: txHash, from: rec.from!, to: rec.to!, amount: amount! });
  }
  rejectOrKeep(errors, body.on_error, records.length);
  const result = await withTransaction(ctx, async (tx) => {
    const id = newId('walletImport');
    const row = await walletData.insertImport(tx, ctx, {
      id,
      kind: 'transfers',
      list: null,
      lines: records.length,
      imported: rows.length,
      errors: errors.slice(0, MAX_ERRORS),
    });
    await walletData.insertTransfers(tx, ctx, id, rows);
    await emitAudit(tx, ctx, {
      action: 'wallet_import.created',
      resourceType: 'wallet_import',
      resourceId: id,
      metadata: { kind: 'transfers', lines: records.length, imported: rows.length, rejected: errors.length },
    });
    // A new transfer a→b changes the exposure of a, b and every address one hop from them (at 2 hops).
    if (keys.size) await enqueueRescreen(tx, ctx, keys, 1);
    return toImport(row, errors.length);
  });
  walletIndexesFor(ctx.db).invalidateTenant(ctx);
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
