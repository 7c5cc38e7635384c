import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CreateTransaction } from './schemas.js';

// TypeBox's own checker (per-row validation) knows no formats until they are registered (same rule as the
// verification imports, whichever module loads first registers it).
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => ISO_DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));

/** A row to import: the POST /v1/transactions shape plus an optional label (is it known suspicious?). */
export interface ImportRow {
  line: number;
  input: CreateTransaction;
  label: boolean | null;
}
export class ImportError extends Error {
  constructor(
    readonly line: number,
    readonly column: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** RFC 4180 CSV: quoted fields with "" escapes and embedded commas/newlines; returns rows with their first line number. */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const out: { line: number; cells: string[] }[] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      if (row.length > 1 || row[0] !== '') out.push({ line: rowLine, cells: row });
      row = [];
      cell = '';
      line++;
      rowLine = line;
    } else cell += ch;
  }
  if (quoted) throw new ImportError(rowLine, null, 'unterminated quoted field');
  row.push(cell);
  if (row.length > 1 || row[0] !== '') out.push({ line: rowLine, cells: row });
  return out;
}

const bool = (v: string | undefined, line: number, column: string): boolean | null => {
  if (v === undefined || v === '') return null;
  const s = v.toLowerCase();
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  throw new ImportError(line, column, `'${v.slice(0, 20)}' is not true or false`);
};

function check(line: number, input: unknown): CreateTransaction {
  if (!Value.Check(CreateTransaction, input)) {
    const e = Value.Errors(CreateTransaction, input).First()!;
    throw new ImportError(line, e.path.replace(/^\//, '').replace(/\//g, '.') || null, e.message);
  }
  return input;
}

/**
 * AMLSim transactions.csv (tran_id, orig_acct, bene_acct, tx_type, base_amt, tran_timestamp, is_sar…): each
 * transfer becomes two rows, one per side (`<tran_id>:out` for the originator, `<tran_id>:in` for the
 * beneficiary), so aggregates grouped by subject see both. Currency USD (AMLSim's reporting currency).
 */
function amlsimRows(header: string[], rows: { line: number; cells: string[] }[], currency: string): ImportRow[] {
  const need = ['tran_id', 'orig_acct', 'bene_acct', 'tx_type', 'base_amt', 'tran_timestamp'];
  for (const c of need) if (!header.includes(c)) throw new ImportError(1, c, `the AMLSim preset needs a column ${c}`);
  const col = (cells: string[], name: string) => cells[header.indexOf(name)];
  const out: ImportRow[] = [];
  for (const { line, cells } of rows) {
    const id = col(cells, 'tran_id')!;
    const orig = col(cells, 'orig_acct')!;
    const bene = col(cells, 'bene_acct')!;
    const amount = normalizeAmount(col(cells, 'base_amt')!);
    const label = header.includes('is_sar') ? bool(col(cells, 'is_sar'), line, 'is_sar') : null;
    const common = {
      occurred_at: col(cells, 'tran_timestamp')!,
      amount,
      currency,
      type: (col(cells, 'tx_type') ?? 'transfer').toLowerCase(),
    };
    out.push({
      line,
      label,
      input: check(line, {
        occurred_at: common.occurred_at,
        amount: common.amount,
        currency: common.currency,
        type: common.type,
        reference: `${id}:out`,
        direction: 'out',
        subject: { reference: orig },
        counterparty: { reference: bene },
      }),
    });
    out.push({
      line,
      label,
      input: check(line, {
        occurred_at: common.occurred_at,
        amount: common.amount,
        currency: common.currency,
        type: common.type,
        reference: `${id}:in`,
        direction: 'in',
        subject: { reference: bene },
        counterparty: { reference: orig },
      }),
    });
  }
  return out;
}

/** "234.1" stays; "1e3" or "-2" are refused later by the schema; trailing dots are not decimals. */
function normalizeAmount(v: string): string {
  return v.trim();
}

/** Verity's own CSV columns: the request fields, nested ones with an underscore (subject_reference, counterparty_name…). */
const VERITY_COLUMNS: Record<string, string[]> = {
  reference: ['reference'],
  occurred_at: ['occurred_at'],
  amount: ['amount'],
  currency: ['currency'],
  direction: ['direction'],
  type: ['type'],
  channel: ['channel'],
  account: ['account'],
  device: ['device'],
  ip: ['ip'],
  subject_reference: ['subject', 'reference'],
  subject_country: ['subject', 'country'],
  counterparty_reference: ['counterparty', 'reference'],
  counterparty_name: ['counterparty', 'name'],
  counterparty_account: ['counterparty', 'account'],
  counterparty_bank_country: ['counterparty', 'bank_country'],
  counterparty_country: ['counterparty', 'country'],
  counterparty_wallet: ['counterparty', 'wallet'],
  counterparty_balance_after: ['counterparty', 'balance_after'],
};

function verityCsvRows(header: string[], rows: { line: number; cells: string[] }[]): ImportRow[] {
  for (const h of header) if (!VERITY_COLUMNS[h] && h !== 'label') throw new ImportError(1, h, `unknown column ${h}`);
  return rows.map(({ line, cells }) => {
    const o: Record<string, unknown> = {};
    header.forEach((h, i) => {
      const v = cells[i];
      if (h === 'label' || v === undefined || v === '') return;
      const path = VERITY_COLUMNS[h]!;
      if (path.length === 1) o[path[0]!] = v;
      else ((o[path[0]!] ??= {}) as Record<string, unknown>)[path[1]!] = v;
    });
    const li = header.indexOf('label');
    return { line, label: li >= 0 ? bool(cells[li], line, 'label') : null, input: check(line, o) };
  });
}

export const MAX_IMPORT_ROWS = 100_000;

/** Parses and validates a whole import (nothing is stored when any row is bad). */
export function parseImport(format: 'csv' | 'jsonl', preset: 'verity' | 'amlsim', data: string, currency: string): ImportRow[] {
  if (format === 'jsonl') {
    if (preset !== 'verity') throw new ImportError(0, 'preset', 'JSON lines take the verity preset (the POST /v1/transactions shape)');
    const out: ImportRow[] = [];
    data.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      let v: unknown;
      try {
        v = JSON.parse(raw);
      } catch {
        throw new ImportError(i + 1, null, 'not valid JSON');
      }
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ImportError(i + 1, null, 'each line must be a JSON object');
      const { label, ...rest } = v as Record<string, unknown>;
      if (label !== undefined && typeof label !== 'boolean') throw new ImportError(i + 1, 'label', 'label must be true or false');
      out.push({ line: i + 1, label: (label as boolean | undefined) ?? null, input: check(i + 1, rest) });
    });
    return out;
  }
  const rows = parseCsv(data);
  if (rows.length === 0) throw new ImportError(1, null, 'the CSV has no header');
  const header = rows[0]!.cells.map((h) => h.trim());
  const body = rows.slice(1);
  return preset === 'amlsim' ? amlsimRows(header, body, currency) : verityCsvRows(header, body);
}
