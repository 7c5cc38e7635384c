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
 * finding the oldest is O(1) and no timestamps or linked lists are needed.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    readonly max: number,
    readonly order: EvictionOrder = 'insertion',
    /** Told of each entry dropped to make room (not of `delete` or `clear`). */
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a BoundedMap holds at least one entry, got max ${max}`);
  }

  /** The value under `key`; in `use` order, also marks it the most recently used. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (this.order === 'use' && this.map.delete(key)) this.map.set(key, v as V);
    return v;
  }

  /** Whether `key` is held, without counting as a use. */
  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets `key`; a new key past `max` drops the oldest entries (never the one just set). */
  set(key: K, value: V): this {
    if (this.order === 'use') this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value as K;
      const dropped = this.map.get(oldest) as V;
      this.map.delete(oldest);
      this.onEvict?.(oldest, dropped);
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
