import { randomUUID } from 'node:crypto';
import type { Db } from '../../../platform/db.js';
import type { ScreeningQuery } from '../../../engines/screening/types.js';
import { snapshots, type SnapshotRow } from './snapshot-repository.js';
import type { ScreenAcrossOptions, ScreenAcrossResult } from './screen-across.js';
import { SCREENING_WORKER, stateMissing, type ScreeningWorker } from './screening-worker.js';
import { defineResource, type Resources } from '../../../platform/resources.js';
import { ensureSandboxSnapshot } from './activate-snapshot.js';

/** An active snapshot whose index the screening worker holds. */
export interface SnapshotIndex {
  snapshot: SnapshotRow;
  entityCount: number;
  nameCount: number;
  /** The data sets its entities belong to: a request for another data set has no list behind it. */
  datasets: string[];
}

/**
 * The screening indexes of the active snapshots: one per snapshot, so a new OFAC snapshot rebuilds
 * OFAC's index only. The indexes live in the screening worker thread (screening-worker.ts), which
 * builds them and answers the queries; this class decides what the worker should hold and holds
 * only the snapshot rows. The active set is looked up at most every `refreshMs` (one tiny query)
 * and by a background timer, so a list switched by another process is picked up within seconds and
 * usually built before any request needs it. A request waits only for an index that does not exist yet.
 */
export class ScreeningIndexCache {
  private readonly built = new Map<string, Promise<SnapshotIndex>>();
  private current: { fingerprint: string; entries: SnapshotIndex[] } | null = null;
  private checkedAt = 0;
  private refreshing: Promise<SnapshotIndex[]> | null = null;
  private refreshingGeneration = 0;
  /** Bumped by invalidate(): a refresh that began before it may have read the old active set. */
  private generation = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** This cache's name in the worker, which may serve several caches. */
  private readonly owner = randomUUID();
  private worker: ScreeningWorker | null = null;

  constructor(
    private readonly db: Db,
    private readonly refreshMs: number,
    /** The screening worker, asked for on first use (so building the cache starts no thread). */
    private readonly workerOf: () => ScreeningWorker,
  ) {}

  /** The indexes of the active snapshots (fresh to within refreshMs). */
  async get(): Promise<SnapshotIndex[]> {
    if (this.current && Date.now() - this.checkedAt < this.refreshMs) return this.current.entries;
    return this.refresh();
  }

  /**
   * Looks at the active set now; builds what is missing. Concurrent callers share one refresh,
   * unless the set was invalidated after that refresh began: then a new one runs after it.
   */
  refresh(): Promise<SnapshotIndex[]> {
    if (this.refreshing && this.refreshingGeneration === this.generation) return this.refreshing;
    const p: Promise<SnapshotIndex[]> = (this.refreshing ?? Promise.resolve()).catch(() => undefined).then(() => this.doRefresh());
    this.refreshing = p;
    this.refreshingGeneration = this.generation;
    void p
      .catch(() => undefined)
      .finally(() => {
        if (this.refreshing === p) this.refreshing = null;
      });
    return p;
  }

  /**
   * Work to do once before the first refresh (installing the built-in sandbox list). It runs here,
   * not when the module registers, so building the app never touches the database.
   */
  setup(fn: () => Promise<void>): void {
    this.init = fn;
    this.initDone = null;
  }

  private init: (() => Promise<void>) | null = null;
  private initDone: Promise<void> | null = null;

  private async doRefresh(): Promise<SnapshotIndex[]> {
    if (this.init) {
      this.initDone ??= this.init().catch((err) => {
        this.initDone = null;
        throw err;
      });
      await this.initDone;
    }
    const started = Date.now();
    const generation = this.generation;
    const active = await snapshots.active(this.db);
    const fingerprint = active
      .map((s) => s.id)
      .sort()
      .join(',');
    // Asked every time, not only when the set changed: an index the worker lost is built again.
    const entries = await Promise.all(active.map((s) => this.indexFor(s)));
    if (this.current?.fingerprint !== fingerprint) {
      for (const id of this.built.keys()) if (!active.some((s) => s.id === id)) this.built.delete(id);
      // A request still holding the old set gets index_missing and screens the new one (screen()).
      await this.workerHandle().run({ kind: 'retain', owner: this.owner, snapshotIds: active.map((s) => s.id) });
    }
    this.current = { fingerprint, entries };
    // Fresh only once the new indexes are in place: until then get() keeps waiting for this refresh.
    if (generation === this.generation) this.checkedAt = started;
    return this.current.entries;
  }

  private workerHandle(): ScreeningWorker {
    return (this.worker ??= this.workerOf());
  }

  private indexFor(s: SnapshotRow): Promise<SnapshotIndex> {
    let p = this.built.get(s.id);
    if (!p) {
      p = (async () => {
        for (let attempt = 0; ; attempt++) {
          const w = this.workerHandle();
          try {
            // The entities go to the worker a page at a time; the build runs there, off the event loop.
            const upload = await w.uploadSnapshot(this.db, s.id);
            const size = await w.run({
              kind: 'build',
              owner: this.owner,
              snapshot: { id: s.id, source: s.source, version: s.version },
              upload,
            });
            return { snapshot: s, ...size };
          } catch (err) {
            // The worker was replaced during the upload: start over once.
            if (attempt > 0 || !stateMissing(err, 'upload_missing')) throw err;
          }
        }
      })();
      p.catch(() => this.built.delete(s.id));
      this.built.set(s.id, p);
    }
    return p;
  }

  /**
   * Screens a query against the selected snapshots' indexes in the worker. When the worker lacks
   * one (it restarted, or the active set changed after the caller selected), the cache refreshes
   * and `reselect` picks again from the new set, once. Returns the indexes actually screened.
   */
  async screen(
    selected: SnapshotIndex[],
    query: ScreeningQuery,
    options: ScreenAcrossOptions,
    reselect: (all: SnapshotIndex[]) => SnapshotIndex[],
  ): Promise<{ indexes: SnapshotIndex[]; result: ScreenAcrossResult }> {
    let indexes = selected;
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await this.workerHandle().run({
          kind: 'screen',
          owner: this.owner,
          snapshotIds: indexes.map((s) => s.snapshot.id),
          query,
          options,
        });
        return { indexes, result };
      } catch (err) {
        if (attempt > 0 || !stateMissing(err, 'index_missing')) throw err;
        for (const id of err.details?.missing ?? []) this.built.delete(id);
        this.invalidate();
        indexes = reselect(await this.refresh());
      }
    }
  }

  /** Forget the freshness stamp: the next get() looks at the active set again. */
  invalidate(): void {
    this.checkedAt = 0;
    this.generation++;
  }

  /** Builds at start and follows changes in the background, off the request path. */
  startBackground(onError: (err: unknown) => void): void {
    if (this.timer || this.closed) return;
    const tick = () => {
      if (!this.closed) this.refresh().catch(onError);
    };
    tick();
    this.timer = setInterval(tick, Math.max(1000, this.refreshMs));
    this.timer.unref();
  }

  /** Stops the background refresh and drops this cache's indexes from the worker (whose owner closes it). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.refreshing?.catch(() => undefined);
    const w = this.worker;
    this.worker = null;
    this.built.clear();
    this.current = null;
    this.checkedAt = 0;
    if (w) await w.run({ kind: 'retain', owner: this.owner, snapshotIds: [] }).catch(() => undefined);
  }
}

/**
 * Called after this process switched a snapshot, so its own next screening sees it at once (other
 * processes see it within refreshMs). A process that has not screened yet holds no index to refresh.
 */
export function notifySnapshotsChanged(resources: Resources | undefined): void {
  if (resources?.started(SCREENING_INDEX)) resources.get(SCREENING_INDEX).invalidate();
}

/**
 * The process's screening indexes (`resources.get(SCREENING_INDEX)`), shared by every module that
 * screens (checks, the session pipeline, businesses, Travel Rule). Its first refresh installs the
 * built-in sandbox list; the indexes live in the screening worker.
 */
export const SCREENING_INDEX = defineResource<ScreeningIndexCache>(
  'screening index cache',
  (r) => {
    const cache = new ScreeningIndexCache(r.db, r.config.checks.screening.indexRefreshMs, () => r.get(SCREENING_WORKER));
    cache.setup(() => ensureSandboxSnapshot(r.db));
    return cache;
  },
  (cache) => cache.close(),
);
