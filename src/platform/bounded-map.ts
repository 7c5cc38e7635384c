/**
 * How a full BoundedMap picks what to drop: `insertion` drops the entry set first (a reading does not
 * keep it; replacing a value keeps its place, as a Map does), `use` drops the entry least recently read
 * or set (a `get` or `set` moves it to the newest place).
 */
export type EvictionOrder = 'insertion' | 'use';

/**
 * A Map holding at most `max` entries: setting a new key past the limit drops the oldest entry (by
 * insertion or by use, see EvictionOrder). For process-local caches of things that can be rebuilt
 * (compiled rule sets, memoised screenings, loaded indexes): a Map keeps its keys in insertion order, so
 * finding the oldest is O(1) and no linked lists are needed.
 *
 * In `use` order a read moves its entry to the newest place (a delete and a set) only when at least
 * `max / 8` entries (rounded down) were placed after it: a hot entry read many times in a row stays where it
 * is, so the drop order is least-recently-used to within that slack, and exact below 8 entries. The moves were
 * the Map's churn: three hash operations per read where one does, and a new hash table every few hundred reads
 * (the prepared-statement caches read several times per statement; docs/performance.md, "Pretenuring").
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, Slot<V>>();
  /** Entries placed newest so far (sets and moves); a slot's `at` is this count when it was last placed. */
  private placed = 0;
  private readonly slack: number;

  constructor(
    readonly max: number,
    readonly order: EvictionOrder = 'insertion',
    /** Told of each entry dropped to make room (not of `delete` or `clear`). */
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a BoundedMap holds at least one entry, got max ${max}`);
    this.slack = Math.floor(max / 8);
  }

  /** The value under `key`; in `use` order, also marks it the most recently used (to within the slack, see the class). */
  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) return undefined;
    if (this.order === 'use' && this.placed - slot.at > this.slack) {
      this.map.delete(key);
      this.map.set(key, slot);
      slot.at = ++this.placed;
    }
    return slot.value;
  }

  /** Whether `key` is held, without counting as a use. */
  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets `key`; a new key past `max` drops the oldest entries (never the one just set). */
  set(key: K, value: V): this {
    const held = this.map.get(key);
    if (held !== undefined) {
      held.value = value;
      if (this.order === 'insertion') return this; // keeps its place, as a Map does
      this.map.delete(key);
    }
    const slot = held ?? { value, at: 0 };
    slot.at = ++this.placed;
    this.map.set(key, slot);
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value as K;
      const dropped = this.map.get(oldest)!;
      this.map.delete(oldest);
      this.onEvict?.(oldest, dropped.value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }

  /** Keys from oldest (next to be dropped) to newest. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }
}

interface Slot<V> {
  value: V;
  at: number;
}
