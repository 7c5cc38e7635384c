import type { Db } from './db.js';
import { createAccount } from './accounts.js';
import { createApiKey } from './api-keys.js';

export interface BootstrapResult {
  created: boolean;
  accountId: string;
  sandboxKey?: string;
  productionKey?: string;
}

/**
 * On an empty database: one account with one sandbox and one production key. Keys are shown
 * once (only hashes are stored), so a restart finds the account and mints nothing.
 * Module seeds (default journeys, sandbox lists) hook in through `onAccountCreated`.
 */
export async function bootstrapFirstAccount(
  db: Db,
  onAccountCreated: Array<(db: Db, accountId: string) => Promise<void>> = [],
): Promise<BootstrapResult> {
  const result = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7312003)');
    const existing = await tx.query<{ id: string }>('SELECT id FROM accounts ORDER BY id LIMIT 1');
    if (existing[0]) return { created: false, accountId: existing[0].id } as BootstrapResult;
    const account = await createAccount(tx, { name: 'Default account' });
    const sandbox = await createApiKey(tx, { accountId: account.id, environment: 'sandbox', name: 'first sandbox key' });
    const production = await createApiKey(tx, { accountId: account.id, environment: 'production', name: 'first production key' });
    return { created: true, accountId: account.id, sandboxKey: sandbox.key, productionKey: production.key };
  });
  if (result.created) for (const seed of onAccountCreated) await seed(db, result.accountId);
  return result;
}

/** The file (under DATA_DIR) that receives the first keys when the server's output is not a terminal. */
export const FIRST_KEYS_FILE = 'initial-keys.txt';
