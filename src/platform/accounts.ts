import type { Queryable } from './db.js';
import { newId } from './ids.js';

export interface AccountRow {
  id: string;
  name: string;
  rate_limit_per_minute: number | null;
  retention_days: number | null;
  created_at: Date;
}

export async function createAccount(
  db: Queryable,
  input: { name: string; rateLimitPerMinute?: number | null; retentionDays?: number | null },
): Promise<AccountRow> {
  const rows = await db.query<AccountRow>(
    'INSERT INTO accounts (id, name, rate_limit_per_minute, retention_days) VALUES ($1, $2, $3, $4) RETURNING *',
    [newId('account'), input.name, input.rateLimitPerMinute ?? null, input.retentionDays ?? null],
  );
  return rows[0]!;
}

export async function listAccounts(db: Queryable): Promise<AccountRow[]> {
  return db.query<AccountRow>('SELECT * FROM accounts ORDER BY id');
}

export async function getAccount(db: Queryable, id: string): Promise<AccountRow | null> {
  return (await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]))[0] ?? null;
}
