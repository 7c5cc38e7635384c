import type { Queryable } from '../../platform/db.js';

// SQL of chain-data polling: which monitored addresses a provider reads next, and how far it read.

type Tenant = { accountId: string; environment: 'sandbox' | 'production' };

export interface DueAddress {
  account_id: string;
  environment: 'sandbox' | 'production';
  chain: string;
  normalized_address: string;
  cursor: string | null;
}

export const chainCursors = {
  /** Active monitors' addresses on these chains, least recently polled by this provider first (never polled first of all). */
  async due(db: Queryable, provider: string, chains: string[], limit: number): Promise<DueAddress[]> {
    return db.query<DueAddress>(
      `SELECT account_id, environment, chain, normalized_address, cursor FROM (
         SELECT DISTINCT ON (m.account_id, m.environment, m.normalized_address)
                m.account_id, m.environment, m.chain, m.normalized_address, c.cursor, c.fetched_at
           FROM wallet_monitors m
           LEFT JOIN wallet_chain_cursors c ON c.account_id = m.account_id AND c.environment = m.environment
                AND c.provider = $1 AND c.normalized_address = m.normalized_address
          WHERE m.state = 'active' AND m.chain = ANY($2::text[])
          ORDER BY m.account_id, m.environment, m.normalized_address
       ) d
       ORDER BY fetched_at NULLS FIRST, account_id, environment, normalized_address
       LIMIT $3`,
      [provider, chains, limit],
    );
  },

  /** Records a poll: the new cursor and the count on success, the error (cursor kept) on failure. */
  async save(
    tx: Queryable,
    t: Tenant,
    r: { provider: string; chain: string; address: string; cursor: string | null; transfers: number; error: string | null },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO wallet_chain_cursors (account_id, environment, provider, chain, normalized_address, cursor, fetched_at, transfers, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, now(), $7, $8)
       ON CONFLICT (account_id, environment, provider, normalized_address) DO UPDATE
         SET cursor = COALESCE($6, wallet_chain_cursors.cursor), fetched_at = now(),
             transfers = wallet_chain_cursors.transfers + $7, last_error = $8`,
      [t.accountId, t.environment, r.provider, r.chain, r.address, r.cursor, r.transfers, r.error],
    );
  },

  async get(db: Queryable, t: Tenant, provider: string, address: string) {
    const rows = await db.query<{ cursor: string | null; transfers: string; last_error: string | null }>(
      `SELECT cursor, transfers::text, last_error FROM wallet_chain_cursors
        WHERE account_id = $1 AND environment = $2 AND provider = $3 AND normalized_address = $4`,
      [t.accountId, t.environment, provider, address],
    );
    return rows[0] ?? null;
  },
};
