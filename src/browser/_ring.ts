/**
 * The collector's ring buffers: fixed capacity, monotonic indices never reused, a cumulative `dropped` count, and an
 * optional byte budget several rings share (the oldest entry of any of them goes first).
 *
 * @module
 */

/** Ring buffer capacity of each stream. */
export const RING_SIZE = 1000;
/** Estimated bytes both rings may hold together. */
export const RING_BUDGET = 32 * 1024 * 1024;

/**
 * A byte budget shared by several rings: when the estimated total is over it, the oldest entry of any ring is
 * evicted (and counted as dropped by its ring).
 */
export class RingBudget {
  /** Estimated bytes held now. */
  used = 0;
  #seq = 0;
  readonly rings: Array<Ring<{ index: number }>> = [];
  /** Creates a budget of `limit` bytes. */
  constructor(readonly limit: number = RING_BUDGET) {}
  /** The next insertion number (orders entries across rings). */
  nextSeq(): number {
    return this.#seq++;
  }
  /** Evicts the oldest entries across the rings until the total fits. */
  enforce(): void {
    while (this.used > this.limit) {
      let oldest: Ring<{ index: number }> | undefined;
      for (const r of this.rings) {
        const seq = r.headSeq();
        if (seq !== undefined && (oldest === undefined || seq < oldest.headSeq()!)) oldest = r;
      }
      if (!oldest) return;
      oldest.evictOldest();
    }
  }
}

/** A fixed-capacity buffer of indexed entries, optionally within a shared {@linkcode RingBudget}. */
export class Ring<T extends { index: number }> {
  #items: T[] = [];
  #sizes: number[] = [];
  #seqs: number[] = [];
  #next = 0;
  #dropped = 0;
  #budget: RingBudget;
  #sizeOf: (item: T) => number;
  /** Called with each evicted entry. */
  onEvict: (item: T) => void = () => {};
  /**
   * Creates a ring holding at most `capacity` entries; with `budget`, its entries' estimated sizes (`sizeOf`) count
   * against that shared budget.
   */
  constructor(
    readonly capacity: number = RING_SIZE,
    budget?: RingBudget,
    sizeOf: (item: T) => number = () => 0,
  ) {
    this.#budget = budget ?? new RingBudget(Infinity);
    this.#sizeOf = sizeOf;
    this.#budget.rings.push(this as unknown as Ring<{ index: number }>);
  }
  /** The index the next entry gets. */
  nextIndex(): number {
    return this.#next;
  }
  /** Appends an entry whose `index` was taken from {@linkcode nextIndex}. */
  push(item: T): void {
    this.#next = item.index + 1;
    const size = this.#sizeOf(item);
    this.#items.push(item);
    this.#sizes.push(size);
    this.#seqs.push(this.#budget.nextSeq());
    this.#budget.used += size;
    while (this.#items.length > this.capacity) this.evictOldest();
    this.#budget.enforce();
  }
  /** Re-estimates a buffered entry that grew (headers arrived); may evict to stay within the budget. */
  update(item: T): void {
    const at = this.#items.indexOf(item, Math.max(0, item.index - this.first));
    if (at < 0) return;
    const size = this.#sizeOf(item);
    this.#budget.used += size - this.#sizes[at]!;
    this.#sizes[at] = size;
    this.#budget.enforce();
  }
  /** Insertion number of the oldest entry (`undefined` when empty). */
  headSeq(): number | undefined {
    return this.#seqs[0];
  }
  /** Evicts the oldest entry, counting it as dropped. */
  evictOldest(): void {
    const gone = this.#items.shift();
    if (gone === undefined) return;
    this.#budget.used -= this.#sizes.shift()!;
    this.#seqs.shift();
    this.#dropped++;
    this.onEvict(gone);
  }
  /** The entry with this index, if still buffered. */
  get(index: number): T | undefined {
    const first = this.#items[0]?.index ?? this.#next;
    return this.#items[index - first];
  }
  /** Buffered entries, oldest first (do not mutate). */
  all(): readonly T[] {
    return this.#items;
  }
  /** Cumulative evictions. */
  get dropped(): number {
    return this.#dropped;
  }
  /** First buffered index (equals `next` when empty). */
  get first(): number {
    return this.#items[0]?.index ?? this.#next;
  }
  /** Last buffered index (`first - 1` when empty). */
  get last(): number {
    return this.#next - 1;
  }
}
