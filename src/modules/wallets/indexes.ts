import type { Db } from '../../platform/db.js';
import { defineResource } from '../../platform/resources.js';
import { AddressIndex, TransferGraph, type AttributionEntry, type Category } from '../../engines/wallets/index.js';
import { cryptoEntriesFromEntities } from '../../providers/lists/ofac-crypto.js';
import { SANDBOX_SOURCE, snapshots } from '../checks/index.js';
import { walletData } from './repository.js';
import { PolicyCache } from './policy.js';

// The in-process state wallet screening reads, so a screening touches no table but the block list
// and the policy: one AddressIndex per active list snapshot (the crypto identifiers of its entities;
// rebuilt only when that snapshot is replaced), and per tenant one AddressIndex of its attribution
// lists and one TransferGraph of its known transfers, both loaded incrementally by sequence number.
// Freshness: the active snapshot set and each tenant's sequence numbers are looked up at most every
// `refreshMs`; an import in this process invalidates its tenant at once.

type Tenant = { accountId: string; environment: 'sandbox' | 'production' };

interface SnapshotAddresses {
  snapshotId: string;
  source: string;
  index: AddressIndex;
}

interface TenantState {
  /** Set by an import in this process: the next read waits for the new rows instead of serving these. */
  mustWait: boolean;
  /** Bumped by invalidateTenant. */
  generation: number;
  attributions: AddressIndex;
  attributionSeq: string;
  graph: TransferGraph;
  transferSeq: string;
  checkedAt: number;
  loading: Promise<void> | null;
}

/**
 * Rows read per query while loading. PGlite answers on this thread and spends about 50 µs per result
 * row in its own protocol handling (20,000 transfer rows: ~1.2 s in one piece, measured 2026-11-23), so
 * it reads in small pieces; PostgreSQL answers over a socket and the event loop stays free meanwhile.
 */
const loadBatch = (db: Db): number => (db.kind === 'pglite' ? 2_000 : 20_000);
/** Rows added to an index or graph between two yields to the event loop. */
const ADD_STEP = 2_000;
/** Lets the event loop answer requests between steps of a long build (the warm-up of a million transfers). */
const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A snapshot's crypto entries (shared by the index and the re-screen diff). */
export async function snapshotCryptoEntries(db: Db, snapshotId: string, source: string): Promise<AttributionEntry[]> {
  return cryptoEntriesFromEntities(await snapshots.cryptoEntities(db, snapshotId), { name: source, version: snapshotId });
}

export class WalletIndexes {
  private readonly bySnapshot = new Map<string, Promise<SnapshotAddresses>>();
  private active: { fingerprint: string; entries: SnapshotAddresses[]; checkedAt: number } | null = null;
  private activeLoading: Promise<SnapshotAddresses[]> | null = null;
  /** Set by invalidateLists: the next read waits for the reload instead of serving the old set. */
  private listsMustWait = false;
  private listsGeneration = 0;
  private readonly tenants = new Map<string, TenantState>();

  /** The tenants' policy tables as screenings read them (cached a second). */
  readonly policies = new PolicyCache();

  constructor(
    private readonly db: Db,
    private readonly refreshMs = 1000,
  ) {}

  /** The address indexes of the active list snapshots an environment may use (production never sees the sandbox list). */
  async listIndexes(environment: string): Promise<AddressIndex[]> {
    const entries = await this.activeSnapshots();
    return entries.filter((e) => environment === 'sandbox' || e.source !== SANDBOX_SOURCE).map((e) => e.index);
  }

  private async activeSnapshots(): Promise<SnapshotAddresses[]> {
    // Stale-while-revalidate: once built, a request never waits for a snapshot switch to be indexed
    // (the background refresh or this request's reload builds it); only the first build and a switch
    // made in this process (invalidateLists) are waited for.
    while (!this.active || this.listsMustWait) {
      const generation = this.listsGeneration;
      await this.reloadActive();
      if (generation === this.listsGeneration) this.listsMustWait = false;
    }
    if (Date.now() - this.active.checkedAt >= this.refreshMs) this.reloadActive().catch(() => undefined);
    return this.active.entries;
  }

  private reloadActive(): Promise<SnapshotAddresses[]> {
    this.activeLoading ??= this.loadActive().finally(() => (this.activeLoading = null));
    return this.activeLoading;
  }

  /**
   * Builds what the first screening needs before any request: the active snapshots' address indexes
   * and, for each tenant with wallet data (attributions, transfers or active monitors; at most
   * `maxTenants`), its attribution index and transfer graph. It runs in the background while the
   * server already answers; `signal` stops it between tenants (the app is closing).
   */
  async prewarm(maxTenants = 1000, signal?: AbortSignal): Promise<{ snapshots: number; tenants: number }> {
    const entries = await this.activeSnapshots();
    const tenants = signal?.aborted ? [] : await walletData.warmTenants(this.db, maxTenants);
    let warmed = 0;
    for (const t of tenants) {
      if (signal?.aborted) break;
      await this.tenant(t);
      warmed++;
    }
    return { snapshots: entries.length, tenants: warmed };
  }

  /** What is built now (no database read): the indexed snapshot ids and the tenants loaded. */
  state(): { snapshotIds: string[]; tenants: string[] } {
    return {
      snapshotIds: (this.active?.entries ?? []).map((e) => e.snapshotId).sort(),
      tenants: [...this.tenants].filter(([, s]) => !s.mustWait).map(([k]) => k),
    };
  }

  /** Re-reads the active snapshot set every `everyMs` in the background, so a switch is indexed before a request needs it. */
  startRefresh(everyMs: number, onError: (err: unknown) => void = () => undefined): () => void {
    const timer = setInterval(() => {
      if (this.active) this.active.checkedAt = 0;
      this.reloadActive().catch(onError);
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async loadActive(): Promise<SnapshotAddresses[]> {
    const fingerprint = await snapshots.fingerprint(this.db);
    if (this.active && this.active.fingerprint === fingerprint) {
      this.active.checkedAt = Date.now();
      return this.active.entries;
    }
    const rows = await snapshots.active(this.db);
    const ids = new Set(rows.map((r) => r.id));
    // A superseded snapshot's index is dropped: invalidation is by snapshot id.
    for (const id of this.bySnapshot.keys()) if (!ids.has(id)) this.bySnapshot.delete(id);
    const entries = await Promise.all(
      rows.map((r) => {
        let p = this.bySnapshot.get(r.id);
        if (!p) {
          p = (async () => {
            const index = new AddressIndex();
            index.add(await snapshotCryptoEntries(this.db, r.id, r.source));
            return { snapshotId: r.id, source: r.source, index };
          })();
          p.catch(() => this.bySnapshot.delete(r.id));
          this.bySnapshot.set(r.id, p);
        }
        return p;
      }),
    );
    this.active = { fingerprint, entries, checkedAt: Date.now() };
    return entries;
  }

  /** Forgets the active set's freshness (after a snapshot switch in this process, and before a re-screen). */
  invalidateLists(): void {
    if (this.active) this.active.checkedAt = 0;
    this.listsMustWait = true;
    this.listsGeneration++;
  }

  /** Forgets a tenant's freshness (after an import in this process). */
  invalidateTenant(t: Tenant): void {
    const s = this.tenants.get(`${t.accountId}:${t.environment}`);
    if (s) {
      s.checkedAt = 0;
      s.mustWait = true;
      s.generation++;
    }
  }

  /** The tenant's attribution index and transfer graph, fresh to within refreshMs. */
  async tenant(t: Tenant): Promise<{ attributions: AddressIndex; graph: TransferGraph }> {
    const key = `${t.accountId}:${t.environment}`;
    let s = this.tenants.get(key);
    if (!s) {
      s = {
        attributions: new AddressIndex(),
        attributionSeq: '0',
        graph: Object.assign(new TransferGraph(), { autoFreeze: false }),
        transferSeq: '0',
        checkedAt: 0,
        loading: null,
        mustWait: true,
        generation: 0,
      };
      this.tenants.set(key, s);
    }
    const state = s;
    // Stale-while-revalidate: a state loaded before serves while rows written by another process are
    // read in the background; the first load and the rows of a local import are waited for (a load
    // that began before the import does not count: see `generation`).
    while (Date.now() - state.checkedAt >= this.refreshMs) {
      state.loading ??= this.loadTenant(t, state).finally(() => (state.loading = null));
      if (!state.mustWait) {
        state.loading.catch(() => undefined);
        break;
      }
      await state.loading;
    }
    return { attributions: s.attributions, graph: s.graph };
  }

  private async loadTenant(t: Tenant, s: TenantState): Promise<void> {
    const checkedAt = Date.now();
    const generation = s.generation;
    const max = await walletData.maxSeqs(this.db, t);
    while (BigInt(max.attributions) > BigInt(s.attributionSeq)) {
      const rows = await walletData.attributionsAfter(this.db, t, s.attributionSeq, loadBatch(this.db));
      if (rows.length === 0) break;
      for (let i = 0; i < rows.length; i += ADD_STEP) {
        s.attributions.add(
          rows.slice(i, i + ADD_STEP).map((r) => ({
            chain: r.chain,
            address: r.address,
            category: r.category as Category,
            list: { name: `attribution:${r.list}`, version: r.import_id },
            ...(r.entity_id || r.entity_name
              ? { entity: { ...(r.entity_id ? { id: r.entity_id } : {}), ...(r.entity_name ? { name: r.entity_name } : {}) } }
              : {}),
            ...(r.source ? { program: r.source } : {}),
          })),
        );
        await pause();
      }
      s.attributionSeq = rows[rows.length - 1]!.seq;
    }
    // The graph grows in steps while walks keep reading its last frozen view (autoFreeze is off), so a
    // request served during a refresh sees a consistent graph and never pays for a rebuild.
    while (BigInt(max.transfers) > BigInt(s.transferSeq)) {
      const rows = await walletData.transfersAfter(this.db, t, s.transferSeq, loadBatch(this.db));
      if (rows.length === 0) break;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        s.graph.add({ chain: r.chain, ...(r.asset ? { asset: r.asset } : {}), from: r.from_address, to: r.to_address, amount: r.amount });
        if (i % ADD_STEP === ADD_STEP - 1) await pause();
      }
      s.transferSeq = rows[rows.length - 1]!.seq;
    }
    // Build the CSR arrays here, in steps, so no request pays for them and none waits long behind them.
    await s.graph.freezeInSteps(pause);
    if (s.generation !== generation) return; // invalidated meanwhile: the next read loads again
    s.checkedAt = checkedAt;
    s.mustWait = false;
  }
}

/**
 * The process's wallet indexes (`resources.get(WALLET_INDEXES)`): built by the entry point with the
 * other resources and handed to the API, the worker's job handlers and the CLI, so the API and an
 * in-process worker share one set and a test's app has its own.
 */
export const WALLET_INDEXES = defineResource<WalletIndexes>(
  'wallet indexes',
  (r) => new WalletIndexes(r.db),
  () => undefined, // nothing held outside the object: its caches go with it
);

/**
 * Every address key within `hops` transfers of `keys` (both directions), the keys included: the
 * addresses whose exposure a change at `keys` can alter.
 */
export function neighbourhood(graph: TransferGraph, keys: Iterable<string>, hops: number): Set<string> {
  const out = new Set<string>(keys);
  let frontier = new Set<number>();
  for (const k of out) for (const n of graph.nodesOf(k)) frontier.add(n.id);
  const seen = new Set<number>(frontier);
  for (let h = 0; h < hops && frontier.size; h++) {
    const next = new Set<number>();
    for (const id of frontier) {
      for (const dir of ['sent', 'received'] as const) {
        const { peers, start, end } = graph.neighbours(id, dir);
        for (let e = start; e < end; e++) {
          const v = peers[e]!;
          if (seen.has(v)) continue;
          seen.add(v);
          next.add(v);
          out.add(graph.addrOf(v));
        }
      }
    }
    frontier = next;
  }
  return out;
}
