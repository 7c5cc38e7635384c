import type { Queryable } from './db.js';
import { findActiveKey, hashKey, type ApiKeyRecord } from './api-keys.js';

/**
 * Caches key lookups for a few seconds so an authenticated request does not pay a query.
 * A revocation made through this process is seen at once; one made by another process
 * (the CLI against PostgreSQL, another API instance) is seen within `ttlMs`.
 */
export class KeyCache {
  private readonly entries = new Map<string, { record: ApiKeyRecord | null; at: number }>();
  constructor(
    private readonly db: Queryable,
    private readonly ttlMs: number,
  ) {}

  async lookup(presented: string): Promise<ApiKeyRecord | null> {
    const h = hashKey(presented);
    const hit = this.entries.get(h);
    const now = Date.now();
    if (hit && now - hit.at < this.ttlMs) return hit.record;
    const record = await findActiveKey(this.db, presented);
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(h, { record, at: now });
    return record;
  }

  invalidate(): void {
    this.entries.clear();
  }
}
