import type { AggregateDecl, TxRow } from './aggregates.js';
import { type AggregatePlan, type AggregateValue, Accumulator, finish, planAggregate, units } from './aggregate-plan.js';

// Shared by the windows that do not use them: a backtest keeps a window per group and aggregate (a million
// subject–counterparty pairs over 365 days), so what each window allocates for nothing adds up.
const NONE: number[] = [];
const NO_DISTINCT = new Map<string, number>();

/**
 * One group's rows inside one aggregate's window, with running totals (amortised O(1) per row). The rows are
 * kept as columns holding only what the aggregate reads (times always; parsed amounts, distinct values, the
 * rows themselves only when needed): a million-row backtest keeps millions of window entries alive, and one
 * object per entry made the collector trace them all (a fifth of a 1,000,000-row backtest's time).
 */
class GroupWindow {
  /** occurred_at per entry (a double array: nothing for the collector to trace). */
  private ts: number[] = [];
  /** Parsed amounts (amount functions; undefined: the row has no value). */
  private xs: (bigint | undefined)[] | null;
  /** Distinct values (count_distinct; undefined: the row has no value). */
  private ds: (string | undefined)[] | null;
  /** The rows (only when values are filtered on the evaluated transaction). */
  private rows: TxRow[] | null;
  private head = 0;
  n = 0;
  sum = 0n;
  sumSq = 0n;
  /** Rows per distinct value (count_distinct; else one shared empty map, never written). */
  private readonly distinct: Map<string, number>;
  // Monotone deques of indexes into the columns (min and max only; else one shared empty array, never
  // written): front is the current min / max.
  private mins: number[] = NONE;
  private minHead = 0;
  private maxs: number[] = NONE;
  private maxHead = 0;
  /** Entries dropped by compaction before index 0 (positions in `byKey` are absolute: base + index). */
  private base = 0;
  /**
   * With plan.windowKey or plan.windowExclude: the absolute positions of the window's entries per key
   * (undefined: rows without the field), oldest first.
   */
  private readonly byKey: Map<string | undefined, { at: number[]; head: number }> | null;
  private keys: (string | undefined)[] | null;
  private readonly indexKey: AggregatePlan['windowKey'];
  private readonly amounts: boolean;
  private readonly squares: boolean;
  private readonly extremes: boolean;

  constructor(
    private readonly plan: AggregatePlan,
    /** Rows read by value() (its scans and bucket lookups), for the replay's statistics and tests. */
    private readonly stats: { rowsExamined: number },
  ) {
    this.indexKey = plan.windowKey ?? plan.windowExclude;
    this.byKey = this.indexKey ? new Map() : null;
    this.keys = this.indexKey ? [] : null;
    this.amounts = plan.fn !== 'count' && plan.fn !== 'count_distinct' && plan.fieldValue !== undefined;
    this.squares = plan.fn === 'stddev';
    this.extremes = plan.fn === 'min' || plan.fn === 'max';
    this.xs = this.amounts ? [] : null;
    this.ds = plan.fn === 'count_distinct' ? [] : null;
    this.distinct = this.ds ? new Map() : NO_DISTINCT;
    if (this.extremes) {
      this.mins = [];
      this.maxs = [];
    }
    // Rows are kept only for the predicate of a scan: not when the key decides alone, nor for a ne filter
    // answered from the buckets (excluding()).
    const bucketed = plan.windowKey ? plan.keyDecides : plan.windowExclude !== null && !this.extremes;
    this.rows = plan.windowMatch && !bucketed ? [] : null;
  }

  push(row: TxRow): void {
    const { fn, fieldValue } = this.plan;
    const i = this.ts.push(row.occurred_at) - 1;
    this.rows?.push(row);
    if (this.byKey) {
      const k = this.indexKey!.rowKey(row);
      this.keys!.push(k);
      let l = this.byKey.get(k);
      if (!l) this.byKey.set(k, (l = { at: [], head: 0 }));
      l.at.push(this.base + i);
    }
    if (fn === 'count') {
      this.n++;
      return;
    }
    const raw = fieldValue?.(row);
    if (this.ds) {
      this.ds.push(raw);
      if (raw !== undefined) this.distinct.set(raw, (this.distinct.get(raw) ?? 0) + 1);
      return;
    }
    if (!this.xs) return;
    const x = raw === undefined ? undefined : units(raw);
    this.xs.push(x);
    if (x === undefined) return;
    this.n++;
    this.sum += x;
    if (this.squares) this.sumSq += x * x;
    if (this.extremes) {
      const xs = this.xs;
      while (this.mins.length > this.minHead && xs[this.mins[this.mins.length - 1]!]! >= x) this.mins.pop();
      this.mins.push(i);
      while (this.maxs.length > this.maxHead && xs[this.maxs[this.maxs.length - 1]!]! <= x) this.maxs.pop();
      this.maxs.push(i);
    }
  }

  /** Drops rows at or before `from` (windows are (t − w, t]). */
  evict(from: number): void {
    const { ts } = this;
    if (this.head >= ts.length || ts[this.head]! > from) return;
    const { fn } = this.plan;
    while (this.head < ts.length && ts[this.head]! <= from) {
      const h = this.head;
      if (this.byKey) {
        // Entries leave in order, so an evicted entry is the oldest of its key's list.
        const k = this.keys![h];
        const l = this.byKey.get(k)!;
        l.head++;
        if (l.head === l.at.length) this.byKey.delete(k);
        else if (l.head > 64 && l.head * 2 > l.at.length) {
          l.at = l.at.slice(l.head);
          l.head = 0;
        }
      }
      if (fn === 'count') this.n--;
      else if (this.ds) {
        const d = this.ds[h];
        if (d !== undefined) {
          const c = this.distinct.get(d)! - 1;
          if (c === 0) this.distinct.delete(d);
          else this.distinct.set(d, c);
        }
      } else if (this.xs) {
        const x = this.xs[h];
        if (x !== undefined) {
          this.n--;
          this.sum -= x;
          if (this.squares) this.sumSq -= x * x;
          if (this.mins[this.minHead] === h) this.minHead++;
          if (this.maxs[this.maxHead] === h) this.maxHead++;
        }
      }
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > ts.length) this.compact();
  }

  /**
   * A `ne` filter on the evaluated transaction (AggregatePlan.windowExclude): the running totals minus the
   * rows whose key equals the transaction's and the rows without the field (neither matches `ne`), read from
   * their buckets, not the window. A transaction without the compared value matches no row.
   */
  private excluding(tx: TxRow): AggregateValue {
    const p = this.plan;
    const k = p.windowExclude!.txKey(tx);
    if (k === undefined) return new Accumulator(p).value();
    let n = this.n;
    let sum = this.sum;
    let sumSq = this.sumSq;
    const removed = new Map<string, number>();
    for (const key of [k, undefined]) {
      const l = this.byKey!.get(key);
      if (!l) continue;
      for (let j = l.head; j < l.at.length; j++) {
        const at = l.at[j]! - this.base;
        this.stats.rowsExamined++;
        if (p.fn === 'count') n--;
        else if (this.ds) {
          const d = this.ds[at];
          if (d !== undefined) removed.set(d, (removed.get(d) ?? 0) + 1);
        } else {
          const x = this.xs?.[at];
          if (x !== undefined) {
            n--;
            sum -= x;
            sumSq -= x * x;
          }
        }
      }
    }
    // A distinct value leaves only when every one of its rows was removed.
    let distinct = this.distinct.size;
    for (const [d, c] of removed) if (this.distinct.get(d) === c) distinct--;
    return finish(p.fn, n, sum, sumSq, null, null, distinct);
  }

  private compact(): void {
    const h = this.head;
    this.ts = this.ts.slice(h);
    if (this.xs) this.xs = this.xs.slice(h);
    if (this.ds) this.ds = this.ds.slice(h);
    if (this.rows) this.rows = this.rows.slice(h);
    if (this.keys) this.keys = this.keys.slice(h);
    this.base += h;
    if (this.extremes) {
      this.mins = this.mins.slice(this.minHead).map((i) => i - h);
      this.maxs = this.maxs.slice(this.maxHead).map((i) => i - h);
    }
    this.head = this.minHead = this.maxHead = 0;
  }

  value(tx: TxRow): AggregateValue {
    const p = this.plan;
    if (p.windowMatch) {
      // Filters that depend on the evaluated transaction cannot be pre-aggregated: scan this group's window
      // (its rows' amounts were parsed once, when they entered it).
      const acc = new Accumulator(p);
      const xs = this.xs;
      const ds = this.ds;
      if (this.byKey && p.windowKey) {
        // Only the rows whose key equals the transaction's can match (see AggregatePlan.windowKey).
        const k = p.windowKey.txKey(tx);
        const l = k === undefined ? undefined : this.byKey.get(k);
        if (!l) return acc.value();
        // Nothing else to check: a count is the key's row count, other functions read the key's values.
        if (p.keyDecides && p.fn === 'count') return l.at.length - l.head;
        const rows = this.rows;
        for (let j = l.head; j < l.at.length; j++) {
          const at = l.at[j]! - this.base;
          this.stats.rowsExamined++;
          if (rows && !p.windowMatch(rows[at]!, tx)) continue;
          acc.addParsed(xs?.[at], ds?.[at]);
        }
        return acc.value();
      }
      if (this.byKey && p.windowExclude && !this.extremes) return this.excluding(tx);
      const rows = this.rows!;
      this.stats.rowsExamined += rows.length - this.head;
      for (let i = this.head; i < rows.length; i++) if (p.windowMatch(rows[i]!, tx)) acc.addEntry(rows[i]!, xs?.[i]);
      return acc.value();
    }
    const xs = this.xs;
    const min = xs && this.mins.length > this.minHead ? xs[this.mins[this.minHead]!]! : null;
    const max = xs && this.maxs.length > this.maxHead ? xs[this.maxs[this.maxHead]!]! : null;
    return finish(p.fn, this.n, this.sum, this.sumSq, min, max, this.distinct.size);
  }
}

/** Plans whose rows share a group key (AggregatePlan.groupShape): the key is computed once per row for all. */
interface Shape {
  groupKey: (r: TxRow) => string | null;
  /** Indexes into plans. */
  plans: number[];
  /** Group key → that group's window per plan of the shape, in `plans` order (undefined until a row enters it). */
  groups: Map<string, (GroupWindow | undefined)[]>;
}

/**
 * Sliding-window aggregates for replays over long histories in time order (AMLSim bench, backtests).
 * Call values(tx) before add(rows of tx): it refuses a transaction whose rows were already added, so the
 * evaluated transaction is never counted. Gives the same values as computeAggregate over the added rows.
 */
export class SlidingAggregates {
  private readonly plans: AggregatePlan[];
  /** What an aggregate is over no rows (a pure function of its plan). */
  private readonly empty: AggregateValue[];
  private readonly shapes: Shape[];
  /**
   * Ids added at the latest time. Rows come in time order and values() refuses a transaction before it, so a
   * transaction already added can only be one of these: the guard needs no set of every id ever added.
   */
  private idsAtLast = new Set<string>();
  private last = -Infinity;
  /** The group keys values() computed, per shape, for the row add() is most likely given next. */
  private keysOf: TxRow | null = null;
  private readonly keys: (string | null)[];
  /** Rows read to answer values() (window scans and key buckets): what the window indexes save. */
  readonly stats = { rowsExamined: 0 };

  constructor(decls: readonly AggregateDecl[]) {
    this.plans = decls.map(planAggregate);
    this.empty = this.plans.map((p) => new Accumulator(p).value());
    const byShape = new Map<string, Shape>();
    this.plans.forEach((p, i) => {
      let s = byShape.get(p.groupShape);
      if (!s) byShape.set(p.groupShape, (s = { groupKey: p.groupKey, plans: [], groups: new Map() }));
      s.plans.push(i);
    });
    this.shapes = [...byShape.values()];
    this.keys = this.shapes.map(() => null);
  }

  private groupKeys(row: TxRow): (string | null)[] {
    if (this.keysOf !== row) {
      for (let s = 0; s < this.shapes.length; s++) this.keys[s] = this.shapes[s]!.groupKey(row);
      this.keysOf = row;
    }
    return this.keys;
  }

  values(tx: TxRow): Record<string, AggregateValue> {
    if (tx.occurred_at < this.last) throw new Error('transactions must come in time order');
    if (tx.occurred_at === this.last && this.idsAtLast.has(tx.id))
      throw new Error(`transaction ${tx.id} was already added: evaluate before adding`);
    const out: Record<string, AggregateValue> = {};
    const keys = this.groupKeys(tx);
    for (let s = 0; s < this.shapes.length; s++) {
      const shape = this.shapes[s]!;
      const key = keys[s];
      const gs = key === null ? undefined : shape.groups.get(key!);
      for (let j = 0; j < shape.plans.length; j++) {
        const i = shape.plans[j]!;
        const p = this.plans[i]!;
        const g = gs?.[j];
        if (!g) {
          out[p.key] = this.empty[i]!;
          continue;
        }
        g.evict(tx.occurred_at - p.windowMs);
        out[p.key] = g.value(tx);
      }
    }
    return out;
  }

  add(row: TxRow): void {
    if (row.occurred_at < this.last) throw new Error('rows must come in time order');
    if (row.occurred_at !== this.last) this.idsAtLast = new Set();
    this.last = row.occurred_at;
    this.idsAtLast.add(row.id);
    const keys = this.groupKeys(row);
    for (let s = 0; s < this.shapes.length; s++) {
      const key = keys[s];
      if (key === null) continue;
      const shape = this.shapes[s]!;
      let gs: (GroupWindow | undefined)[] | undefined;
      for (let j = 0; j < shape.plans.length; j++) {
        const p = this.plans[shape.plans[j]!]!;
        if (!p.staticMatch(row)) continue;
        gs ??= shape.groups.get(key!);
        if (!gs) shape.groups.set(key!, (gs = new Array<GroupWindow | undefined>(shape.plans.length).fill(undefined)));
        let g = gs[j];
        if (!g) gs[j] = g = new GroupWindow(p, this.stats);
        g.evict(row.occurred_at - p.windowMs);
        g.push(row);
      }
    }
  }
}
