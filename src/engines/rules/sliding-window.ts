import type { AggregateDecl, TxRow } from './aggregates.js';
import { type AggregatePlan, type AggregateValue, Accumulator, finish, planAggregate, units } from './aggregate-plan.js';

interface Entry {
  t: number;
  row: TxRow;
  x: bigint | undefined;
  d: string | undefined;
}

/** One group's rows inside one aggregate's window, with running totals (amortised O(1) per row). */
class GroupWindow {
  private entries: Entry[] = [];
  private head = 0;
  n = 0;
  sum = 0n;
  sumSq = 0n;
  readonly distinct = new Map<string, number>();
  // Monotone deques of indexes into entries: front is the current min / max.
  private mins: number[] = [];
  private minHead = 0;
  private maxs: number[] = [];
  private maxHead = 0;
  /** Entries dropped by compaction before entries[0] (positions in `byKey` are absolute: base + index). */
  private base = 0;
  /**
   * With plan.windowKey or plan.windowExclude: the absolute positions of the window's entries per key
   * (undefined: rows without the field), oldest first.
   */
  private readonly byKey: Map<string | undefined, { at: number[]; head: number }> | null;
  private keys: (string | undefined)[] | null;
  private readonly indexKey: AggregatePlan['windowKey'];

  constructor(
    private readonly plan: AggregatePlan,
    /** Rows read by value() (its scans and bucket lookups), for the replay's statistics and tests. */
    private readonly stats: { rowsExamined: number },
  ) {
    this.indexKey = plan.windowKey ?? plan.windowExclude;
    this.byKey = this.indexKey ? new Map() : null;
    this.keys = this.indexKey ? [] : null;
  }

  push(row: TxRow): void {
    const { fn, fieldValue } = this.plan;
    const raw = fieldValue?.(row);
    const e: Entry = { t: row.occurred_at, row, x: undefined, d: undefined };
    if (fn === 'count_distinct') e.d = raw;
    else if (raw !== undefined) e.x = units(raw);
    const i = this.entries.push(e) - 1;
    if (this.byKey) {
      const k = this.indexKey!.rowKey(row);
      this.keys!.push(k);
      let l = this.byKey.get(k);
      if (!l) this.byKey.set(k, (l = { at: [], head: 0 }));
      l.at.push(this.base + i);
    }
    if (fn === 'count') this.n++;
    else if (e.d !== undefined) this.distinct.set(e.d, (this.distinct.get(e.d) ?? 0) + 1);
    else if (e.x !== undefined) {
      const x = e.x;
      this.n++;
      this.sum += x;
      this.sumSq += x * x;
      while (this.mins.length > this.minHead && this.entries[this.mins[this.mins.length - 1]!]!.x! >= x) this.mins.pop();
      this.mins.push(i);
      while (this.maxs.length > this.maxHead && this.entries[this.maxs[this.maxs.length - 1]!]!.x! <= x) this.maxs.pop();
      this.maxs.push(i);
    }
  }

  /** Drops rows at or before `from` (windows are (t − w, t]). */
  evict(from: number): void {
    const { fn } = this.plan;
    while (this.head < this.entries.length && this.entries[this.head]!.t <= from) {
      const e = this.entries[this.head]!;
      if (this.byKey) {
        // Entries leave in order, so an evicted entry is the oldest of its key's list.
        const k = this.keys![this.head];
        const l = this.byKey.get(k)!;
        l.head++;
        if (l.head === l.at.length) this.byKey.delete(k);
        else if (l.head > 64 && l.head * 2 > l.at.length) {
          l.at = l.at.slice(l.head);
          l.head = 0;
        }
      }
      if (fn === 'count') this.n--;
      else if (e.d !== undefined) {
        const c = this.distinct.get(e.d)! - 1;
        if (c === 0) this.distinct.delete(e.d);
        else this.distinct.set(e.d, c);
      } else if (e.x !== undefined) {
        this.n--;
        this.sum -= e.x;
        this.sumSq -= e.x * e.x;
        if (this.mins[this.minHead] === this.head) this.minHead++;
        if (this.maxs[this.maxHead] === this.head) this.maxHead++;
      }
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) this.compact();
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
        const e = this.entries[l.at[j]! - this.base]!;
        this.stats.rowsExamined++;
        if (p.fn === 'count') n--;
        else if (p.fn === 'count_distinct') {
          if (e.d !== undefined) removed.set(e.d, (removed.get(e.d) ?? 0) + 1);
        } else if (e.x !== undefined) {
          n--;
          sum -= e.x;
          sumSq -= e.x * e.x;
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
    this.entries = this.entries.slice(h);
    if (this.keys) this.keys = this.keys.slice(h);
    this.base += h;
    this.mins = this.mins.slice(this.minHead).map((i) => i - h);
    this.maxs = this.maxs.slice(this.maxHead).map((i) => i - h);
    this.head = this.minHead = this.maxHead = 0;
  }

  value(tx: TxRow): AggregateValue {
    const p = this.plan;
    if (p.windowMatch) {
      // Filters that depend on the evaluated transaction cannot be pre-aggregated: scan this group's window
      // (its rows' amounts were parsed once, when they entered it).
      const acc = new Accumulator(p);
      if (this.byKey && p.windowKey) {
        // Only the rows whose key equals the transaction's can match (see AggregatePlan.windowKey).
        const k = p.windowKey.txKey(tx);
        const l = k === undefined ? undefined : this.byKey.get(k);
        // Nothing else to check: a count is the key's row count, other functions read the key's rows.
        if (l && p.keyDecides && p.fn === 'count') return l.at.length - l.head;
        if (l && p.keyDecides)
          for (let j = l.head; j < l.at.length; j++) {
            const e = this.entries[l.at[j]! - this.base]!;
            this.stats.rowsExamined++;
            acc.addEntry(e.row, e.x);
          }
        else if (l)
          for (let j = l.head; j < l.at.length; j++) {
            const e = this.entries[l.at[j]! - this.base]!;
            this.stats.rowsExamined++;
            if (p.windowMatch(e.row, tx)) acc.addEntry(e.row, e.x);
          }
        return acc.value();
      }
      if (this.byKey && p.windowExclude && p.fn !== 'min' && p.fn !== 'max') return this.excluding(tx);
      this.stats.rowsExamined += this.entries.length - this.head;
      for (let i = this.head; i < this.entries.length; i++) {
        const e = this.entries[i]!;
        if (p.windowMatch(e.row, tx)) acc.addEntry(e.row, e.x);
      }
      return acc.value();
    }
    const min = this.mins.length > this.minHead ? this.entries[this.mins[this.minHead]!]!.x! : null;
    const max = this.maxs.length > this.maxHead ? this.entries[this.maxs[this.maxHead]!]!.x! : null;
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
