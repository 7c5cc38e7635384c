import { FaceIndex } from '../../engines/face/index.js';
import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { faceEnrollments } from './repository.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

/**
 * In-process face indexes for databases without pgvector, one per tenant, loaded from the real[]
 * column. Before each search a freshness stamp (newest enrolment id, newest erasure; two index
 * lookups) is compared with the one the index was built at, so an enrolment or erasure made by
 * another process is seen on the next search. Least recently used tenants are dropped beyond `max`.
 */
export class FaceIndexCache {
  private readonly entries = new Map<string, { stamp: string; index: FaceIndex }>();

  constructor(private readonly max: number) {}

  async get(db: Queryable, t: Tenant, model: string): Promise<FaceIndex> {
    const key = `${t.accountId}\u0000${t.environment}\u0000${model}`;
    const stamp = await faceEnrollments.stamp(db, t);
    const cached = this.entries.get(key);
    if (cached && cached.stamp === stamp) {
      this.entries.delete(key);
      this.entries.set(key, cached); // most recently used goes last
      return cached.index;
    }
    const rows = await faceEnrollments.loadAll(db, t, model);
    const index = new FaceIndex(undefined, undefined, Math.max(16, rows.length));
    for (const r of rows) index.add(r.id, r.subject_reference, r.embedding);
    this.entries.delete(key);
    this.entries.set(key, { stamp, index });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return index;
  }

  /** Drops a tenant's indexes after a change in this process (the stamp would catch it too; this frees memory at once). */
  invalidate(t: Tenant): void {
    const prefix = `${t.accountId}\u0000${t.environment}\u0000`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The embedding model's identity: embeddings from another model version are not comparable. */
export function embeddingModelKey(model: { name: string; version: string }[]): string {
  const m = model.find((x) => x.name.includes('faceres')) ?? model[0];
  return m ? `${m.name}@${m.version}` : 'unknown';
}
