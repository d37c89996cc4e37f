import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { DEFAULT_SESSION_LIFETIME_S, REMEMBER_ME_LIFETIME_S } from '#shared/constants.js';
import type { DbOrTx } from '#server/db/client.js';
import { sessions, type SessionRow } from './sessions.tables.js';

/**
 * How long a looked-up session may be reused without asking the database while changes are not heard
 * (no InvalidationBus, or its listener is down). Revocation must reach every instance within one second
 * (docs/product.md#accounts), so the cache then lives for less than that.
 */
export const SESSION_CACHE_MS = 750;
/**
 * While the InvalidationBus listens, a revocation on any instance (or by hand in SQL) reaches this one
 * when it commits (migration 0018's trigger), so entries may live long (docs/decisions/0170).
 */
export const SESSION_CACHE_LIVE_MS = 10 * 60_000;
/** Longer than any transaction that revokes sessions stays open (see `forget`). */
const FORGET_HOLD_MS = 30_000;
const MAX_TRACKED = 50_000;
/** lastSeenAt is a hint for the sessions list; writing it once a minute is plenty. */
const TOUCH_INTERVAL_MS = 60_000;

export interface ActiveSession {
  id: string;
  userId: string | null;
  guestId: string | null;
  isGuest: boolean;
  expiresAt: Date;
}

export function newGuestId(): string {
  return `g_${randomBytes(24).toString('base64url')}`;
}

export class SessionStore {
  private cache = new Map<string, { session: ActiveSession | null; until: number }>();
  private touched = new Map<string, number>();
  private readonly loading = new Map<string, Promise<ActiveSession | null>>();
  private readonly holds = new Map<string, { seq: number; until: number }>();
  private seq = 0;
  private everyoneHeldSeq = 0;

  /** Built once: this lookup runs on every authenticated request the cache does not answer. */
  private readonly findActiveQuery;

  constructor(
    private readonly db: DbOrTx,
    /** Whether changes made anywhere are heard at once (the InvalidationBus listens). */
    private readonly live: () => boolean = () => false,
  ) {
    this.findActiveQuery = db
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, sql.placeholder('sessionId')), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
      .limit(1)
      .prepare('');
  }

  async create(
    db: DbOrTx,
    input: { userId?: string; guestId?: string; rememberMe?: boolean; ip?: string; userAgent?: string; deviceId?: string },
  ): Promise<SessionRow> {
    const lifetime = input.rememberMe ? REMEMBER_ME_LIFETIME_S : DEFAULT_SESSION_LIFETIME_S;
    const [row] = await db
      .insert(sessions)
      .values({
        userId: input.userId ?? null,
        guestId: input.guestId ?? null,
        isGuest: Boolean(input.guestId),
        rememberMe: Boolean(input.rememberMe),
        ip: input.ip ?? null,
        userAgent: input.userAgent?.slice(0, 300) ?? null,
        deviceId: input.deviceId ?? null,
        expiresAt: new Date(Date.now() + lifetime * 1000),
      })
      .returning();
    return row!;
  }

  /**
   * The session if it exists, is not revoked and has not expired; otherwise null. Misses for the same
   * session while its lookup is in flight share that lookup (one query when an entry expires under load).
   */
  findActive(sessionId: string): Promise<ActiveSession | null> {
    const now = Date.now();
    const cached = this.cache.get(sessionId);
    if (cached && cached.until > now) {
      const session = cached.session;
      if (!session) return Promise.resolve(null);
      if (session.expiresAt.getTime() <= now) return Promise.resolve(null);
      this.touch(sessionId, now);
      return Promise.resolve(session);
    }
    const shared = this.loading.get(sessionId);
    if (shared) return shared;

    const startedAt = this.seq;
    const loading = this.findActiveQuery.execute({ sessionId }).then(
      ([row]) => {
        if (this.loading.get(sessionId) === loading) this.loading.delete(sessionId);
        const session: ActiveSession | null = row
          ? { id: row.id, userId: row.userId, guestId: row.guestId, isGuest: row.isGuest, expiresAt: row.expiresAt }
          : null;
        if (this.mayKeep(sessionId, startedAt)) {
          if (this.cache.size > MAX_TRACKED) this.cache.clear();
          // A session not found (or revoked) is kept only briefly: it is not the hot path.
          const ttl = session && this.live() ? SESSION_CACHE_LIVE_MS : SESSION_CACHE_MS;
          this.cache.set(sessionId, { session, until: Date.now() + ttl });
        }
        if (session) this.touch(sessionId, now);
        return session;
      },
      (err: unknown) => {
        if (this.loading.get(sessionId) === loading) this.loading.delete(sessionId);
        throw err;
      },
    );
    this.loading.set(sessionId, loading);
    return loading;
  }

  /** A lookup may be kept unless the session was forgotten since it started, or very recently. */
  private mayKeep(sessionId: string, startedAt: number): boolean {
    if (this.everyoneHeldSeq > startedAt) return false;
    const hold = this.holds.get(sessionId);
    if (!hold) return true;
    if (hold.seq > startedAt || hold.until > Date.now()) return false;
    this.holds.delete(sessionId);
    return true;
  }

  /** Synchronous when there is nothing to write (every cache hit asks). */
  private touch(sessionId: string, now: number): void {
    const last = this.touched.get(sessionId) ?? 0;
    if (now - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(sessionId, now);
    if (this.touched.size > MAX_TRACKED) this.touched.clear();
    this.db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, sessionId))
      .then(
        () => {},
        () => {
          // A hint only; never fail a request for it.
        },
      );
  }

  /**
   * Lets this instance see a revocation at once (other instances hear it through the InvalidationBus
   * when it commits, or within the short cache time when they do not listen). Revocations
   * may call this inside their transaction, before commit: for FORGET_HOLD_MS lookups of the session
   * are not kept, and a lookup already in flight is neither joined nor kept.
   */
  forget(sessionId: string): void {
    this.cache.delete(sessionId);
    this.loading.delete(sessionId);
    if (this.holds.size > MAX_TRACKED) {
      const now = Date.now();
      for (const [id, hold] of this.holds) if (hold.until <= now) this.holds.delete(id);
      if (this.holds.size > MAX_TRACKED) {
        // Too many to track: forget every cached session instead (lookups in flight may still be kept).
        this.holds.clear();
        this.cache.clear();
        this.loading.clear();
      }
    }
    this.holds.set(sessionId, { seq: ++this.seq, until: Date.now() + FORGET_HOLD_MS });
  }

  /** Changes may have been missed (the invalidation listener dropped or came back): start over. */
  forgetAll(): void {
    this.cache.clear();
    this.loading.clear();
    this.everyoneHeldSeq = ++this.seq;
  }

  async revoke(db: DbOrTx, sessionId: string): Promise<void> {
    await db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    this.forget(sessionId);
  }

  /** Ends every session of a user except, optionally, one. Answers the ids it ended. */
  async revokeAllForUser(db: DbOrTx, userId: string, exceptSessionId?: string): Promise<string[]> {
    const rows = await db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          exceptSessionId ? sql`${sessions.id} <> ${exceptSessionId}` : undefined,
        ),
      )
      .returning({ id: sessions.id });
    for (const r of rows) this.forget(r.id);
    return rows.map((r) => r.id);
  }

  async listActiveForUser(userId: string): Promise<SessionRow[]> {
    return this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(desc(sessions.lastSeenAt));
  }

  /** An active guest session for this guestId, if any: proof that the guestId is live. */
  async findActiveGuest(db: DbOrTx, guestId: string): Promise<SessionRow | null> {
    const [row] = await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.guestId, guestId), eq(sessions.isGuest, true), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
      .limit(1);
    return row ?? null;
  }
}
