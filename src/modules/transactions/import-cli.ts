import { readFileSync } from 'node:fs';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { systemContext, type Environment } from '../../platform/context.js';
import { importTransactions } from './import-transactions.js';
import { parseCsv } from './import-format.js';

export const TRANSACTIONS_USAGE = `  transactions import FILE --account ID --environment sandbox|production [--format csv|jsonl] [--preset verity|amlsim] [--json]
                                            load transaction history without evaluating it, in chunks of 5,000, with progress`;

const CHUNK = 5_000;
const cell = (c: string) => (/[",\n\r]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);

/** Splits a file into import requests of at most CHUNK rows (CSV chunks repeat the header). */
export function chunks(format: 'csv' | 'jsonl', text: string): string[] {
  if (format === 'jsonl') {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const out: string[] = [];
    for (let i = 0; i < lines.length; i += CHUNK) out.push(lines.slice(i, i + CHUNK).join('\n'));
    return out;
  }
  const rows = parseCsv(text);
  if (rows.length < 2) return [];
  const header = rows[0]!.cells.map(cell).join(',');
  const out: string[] = [];
  for (let i = 1; i < rows.length; i += CHUNK)
    out.push([header, ...rows.slice(i, i + CHUNK).map((r) => r.cells.map(cell).join(','))].join('\n'));
  return out;
}

/** `verity transactions import`: each chunk is one all-or-nothing import; a failing chunk stops the run (earlier chunks stay). */
export async function runTransactionsImport(
  db: Db,
  o: { file: string; account: string; environment: Environment; format: 'csv' | 'jsonl'; preset: 'verity' | 'amlsim'; json: boolean },
  io: { out(line: string): void; err(line: string): void },
): Promise<number> {
  const parts = chunks(o.format, readFileSync(o.file, 'utf8'));
  const ctx = systemContext(db, o.account, o.environment, 'cli');
  let imported = 0;
  let skipped = 0;
  const started = Date.now();
  for (let i = 0; i < parts.length; i++) {
    try {
      const r = await importTransactions({ ctx, input: { format: o.format, preset: o.preset, data: parts[i]! } });
      imported += r.imported;
      skipped += r.skipped_existing;
    } catch (e) {
      io.err(`chunk ${i + 1}/${parts.length}: ${e instanceof AppError ? e.message : (e as Error).message} (earlier chunks are stored)`);
      return 1;
    }
    const done = Math.round(((i + 1) / parts.length) * 30);
    if (!o.json)
      io.out(
        `[${'#'.repeat(done)}${'.'.repeat(30 - done)}] ${i + 1}/${parts.length} chunks, ${imported} imported, ${skipped} already stored`,
      );
  }
  const summary = { imported, skipped_existing: skipped, chunks: parts.length, seconds: (Date.now() - started) / 1000 };
  io.out(o.json ? JSON.stringify(summary) : `done: ${imported} imported, ${skipped} already stored in ${summary.seconds.toFixed(1)} s`);
  return 0;
}
