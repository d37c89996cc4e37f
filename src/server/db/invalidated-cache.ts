/**
 * After a change to a key starts, reads of it are not kept for this long: longer than any transaction
 * that writes the row stays open, so a read made before its commit is never kept.
 */
export const CHANGE_HOLD_MS = 30_000;

/**
 * A per-instance cache whose entries live long only while changes are heard (`live()`: the
 * InvalidationBus is listening), and otherwise `shortTtlMs` (0: not kept at all). Misses for the same
 * key while its load is in flight share that load. `forget(key)` (a change is under way or was heard)
 * drops the entry and, for CHANGE_HOLD_MS, keeps new reads of the key out of the cache; a load already
 * in flight is neither joined nor kept. `forgetAll()` does that for every key (the bus lost or regained
 * its connection: changes may have been missed).
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private readonly loading = new Map<string, Promise<V | null>>();
  private readonly holds = new Map<string, { seq: number; until: number }>();
  private seq = 0;
  private everyoneHeldSeq = 0;

  constructor(
    private readonly options: {
      live: () => boolean;
      longTtlMs: number;
      shortTtlMs: number;
      maxEntries: number;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  get(key: string, load: (key: string) => Promise<V | null>): Promise<V | null> {
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) return Promise.resolve(hit.value);
    const shared = this.loading.get(key);
    if (shared) return shared;
    const startedAt = this.seq;
    const loading = load(key).then(
      (value) => {
        if (this.loading.get(key) === loading) this.loading.delete(key);
        const ttl = this.options.live() ? this.options.longTtlMs : this.options.shortTtlMs;
        // Unknown keys are not remembered: a row can appear a moment later.
        if (value !== null && ttl > 0 && this.mayKeep(key, startedAt)) {
          if (this.entries.size >= this.options.maxEntries) this.entries.clear();
          this.entries.set(key, { value, until: this.now() + ttl });
        }
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === loading) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, loading);
    return loading;
  }

  forget(key: string): void {
    this.entries.delete(key);
    this.loading.delete(key);
    if (this.holds.size >= this.options.maxEntries) {
      const now = this.now();
      for (const [k, hold] of this.holds) if (hold.until <= now) this.holds.delete(k);
      if (this.holds.size >= this.options.maxEntries) {
        this.holds.clear();
        this.forgetAll();
      }
    }
    this.holds.set(key, { seq: ++this.seq, until: this.now() + CHANGE_HOLD_MS });
  }

  forgetAll(): void {
    this.entries.clear();
    this.loading.clear();
    this.everyoneHeldSeq = ++this.seq;
  }

  private mayKeep(key: string, startedAt: number): boolean {
    if (this.everyoneHeldSeq > startedAt) return false;
    const hold = this.holds.get(key);
    if (!hold) return true;
    if (hold.seq > startedAt || hold.until > this.now()) return false;
    this.holds.delete(key);
    return true;
  }
}
