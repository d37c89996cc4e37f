import { InvalidatedCache } from '#server/db/invalidated-cache.js';
import type { UserRow } from './users.tables.js';

/**
 * How long a user row read for identity and display (`/api/auth/me`, the staff-rights check) may be
 * reused without asking the database. Changes made on another instance reach this one within this
 * time, the same bound docs/product.md#accounts sets for session revocation. Changes made through this
 * instance are seen at once (see `noteUserChanging`).
 */
export const USER_CACHE_MS = 750;
/**
 * While every app in this process hears changes (InvalidationBus listening; migration 0018's trigger
 * notifies every user row change on commit), entries may live this long (docs/decisions/0170).
 */
export const USER_CACHE_LIVE_MS = 10 * 60_000;
/**
 * After a change to a user starts, reads of that user skip the cache for this long: longer than any
 * transaction that writes a user row stays open, so a read made before its commit is never kept.
 */
export const CHANGE_HOLD_MS = 30_000;
const MAX_ENTRIES = 50_000;

/**
 * A short-lived, per-instance cache of user rows. It is never used where money is decided: ledger
 * postings lock and read the row inside their transaction. It exists because every signed-in page
 * view asks `/api/auth/me`, and one database round trip per call was the bottleneck of the server
 * (docs/decisions/0091-request-hot-path.md).
 *
 * Consistency on this instance: every write to a user row calls `noteUserChanging(id)` first (inside
 * its transaction, before commit is fine). That drops the entry and, for CHANGE_HOLD_MS, stops reads of
 * the user from being cached; a read that was already in flight when the change began is not cached
 * either (sequence check), so a stale row cannot be stored around a commit.
 */
export class UserReadCache {
  private readonly entries = new Map<string, { row: UserRow; until: number }>();
  private readonly holds = new Map<string, { seq: number; until: number }>();
  private readonly loading = new Map<string, Promise<UserRow | null>>();
  private seq = 0;
  /** Set when too many changes are in flight to track one by one: then nothing is kept for a while. */
  private everyoneHeld = { seq: 0, until: 0 };
  /** One per app whose InvalidationBus is attached: entries live long only while all of them listen. */
  private readonly liveSources = new Set<() => boolean>();

  constructor(
    private readonly ttlMs = USER_CACHE_MS,
    private readonly holdMs = CHANGE_HOLD_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The user's row from the cache, or from `load` (and kept, unless a change is under way). Callers
   * that miss while a load for the same user is in flight share it: when an entry expires under load,
   * one query goes to the database instead of one per waiting request.
   */
  get(userId: string, load: (userId: string) => Promise<UserRow | null>): Promise<UserRow | null> {
    const hit = this.entries.get(userId);
    if (hit && hit.until > this.now()) return Promise.resolve(hit.row);
    const shared = this.loading.get(userId);
    if (shared) return shared;
    const startedAt = this.seq;
    const loading = load(userId).then(
      (row) => {
        if (this.loading.get(userId) === loading) this.loading.delete(userId);
        // Unknown users are not remembered: an id can become a user a moment later.
        if (row && this.mayKeep(userId, startedAt)) {
          if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
          this.entries.set(userId, { row, until: this.now() + (this.allLive() ? USER_CACHE_LIVE_MS : this.ttlMs) });
        }
        return row;
      },
      (err: unknown) => {
        if (this.loading.get(userId) === loading) this.loading.delete(userId);
        throw err;
      },
    );
    this.loading.set(userId, loading);
    return loading;
  }

  /** Call before writing a user row (credits, role, disabled, connections, onboarding, password). */
  noteUserChanging(userId: string): void {
    for (const follower of this.followers) follower.forget(userId);
    this.entries.delete(userId);
    // A load already in flight may answer the old row: later callers must not join it.
    this.loading.delete(userId);
    if (this.holds.size >= MAX_ENTRIES) this.pruneHolds();
    this.holds.set(userId, { seq: ++this.seq, until: this.now() + this.holdMs });
  }

  /** An app's listener (`live`): while it and every other attached one listen, entries live long. Answers the detach. */
  attachLiveSource(live: () => boolean): () => void {
    this.liveSources.add(live);
    return () => this.liveSources.delete(live);
  }

  /** Other per-user caches (userScopedCache): told of every change and every start-over this cache hears. */
  readonly followers = new Set<{ forget(userId: string): void; forgetAll(): void }>();

  allLive(): boolean {
    if (this.liveSources.size === 0) return false;
    for (const live of this.liveSources) if (!live()) return false;
    return true;
  }

  /** Changes may have been missed (a listener dropped or came back): start over, keep nothing in flight. */
  forgetAll(): void {
    for (const follower of this.followers) follower.forgetAll();
    this.entries.clear();
    this.loading.clear();
    this.everyoneHeld = { seq: ++this.seq, until: 0 };
  }

  private mayKeep(userId: string, startedAt: number): boolean {
    if (this.everyoneHeld.seq > startedAt || this.everyoneHeld.until > this.now()) return false;
    const hold = this.holds.get(userId);
    if (!hold) return true;
    if (hold.seq > startedAt || hold.until > this.now()) return false;
    this.holds.delete(userId);
    return true;
  }

  private pruneHolds(): void {
    const now = this.now();
    for (const [id, hold] of this.holds) if (hold.until <= now) this.holds.delete(id);
    if (this.holds.size >= MAX_ENTRIES) {
      this.entries.clear();
      this.holds.clear();
      this.loading.clear();
      this.everyoneHeld = { seq: ++this.seq, until: now + this.holdMs };
    }
  }
}

/**
 * One cache per process: the functions that write user rows take only a database handle, and user ids
 * are random UUIDs, so apps sharing a process (tests) cannot collide.
 */
export const userReadCache = new UserReadCache();

/**
 * A cache of something per user (e.g. the two-factor summary /api/auth/me shows) that is dropped
 * whenever the user's row cache is: `noteUserChanging`, a change heard from another instance (the
 * user's row, or their two-factor rows: migration 0018), or a start-over. Long-lived on the same terms.
 */
export function userScopedCache<V>(): InvalidatedCache<V> {
  const cache = new InvalidatedCache<V>({
    live: () => userReadCache.allLive(),
    longTtlMs: USER_CACHE_LIVE_MS,
    shortTtlMs: USER_CACHE_MS,
    maxEntries: MAX_ENTRIES,
  });
  userReadCache.followers.add(cache);
  return cache;
}

export function noteUserChanging(userId: string): void {
  userReadCache.noteUserChanging(userId);
}
