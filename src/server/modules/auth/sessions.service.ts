import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { DEFAULT_SESSION_LIFETIME_S, REMEMBER_ME_LIFETIME_S } from '../../../shared/constants.js';
import type { DbOrTx } from '../../db/client.js';
import { sessions, type SessionRow } from './sessions.tables.js';

/**
 * How long a looked-up session may be reused without asking the database. Revocation must reach every
 * instance within one second (design.md section 4), so the cache lives for less than that.
 */
export const SESSION_CACHE_MS = 750;
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

  /** Built once: this lookup runs on every authenticated request the cache does not answer. */
  private readonly findActiveQuery;

  constructor(private readonly db: DbOrTx) {
    this.findActiveQuery = db
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, sql.placeholder('sessionId')), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
      .limit(1)
      .prepare('');
  }

  async create(
    db: DbOrTx,
    input: { userId?: string; guestId?: string; rememberMe?: boolean; ip?: string; userAgent?: string },
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
        expiresAt: new Date(Date.now() + lifetime * 1000),
      })
      .returning();
    return row!;
  }

  /** The session if it exists, is not revoked and has not expired; otherwise null. */
  async findActive(sessionId: string): Promise<ActiveSession | null> {
    const now = Date.now();
    const cached = this.cache.get(sessionId);
    if (cached && cached.until > now) return cached.session;

    const [row] = await this.findActiveQuery.execute({ sessionId });
    const session: ActiveSession | null = row
      ? { id: row.id, userId: row.userId, guestId: row.guestId, isGuest: row.isGuest, expiresAt: row.expiresAt }
      : null;
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(sessionId, { session, until: now + SESSION_CACHE_MS });
    if (session) void this.touch(sessionId, now);
    return session;
  }

  private async touch(sessionId: string, now: number): Promise<void> {
    const last = this.touched.get(sessionId) ?? 0;
    if (now - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(sessionId, now);
    if (this.touched.size > 50_000) this.touched.clear();
    try {
      await this.db.update(sessions).set({ lastSeenAt: new Date(now) }).where(eq(sessions.id, sessionId));
    } catch {
      // A hint only; never fail a request for it.
    }
  }

  /** Lets this instance see a revocation at once (other instances within the cache time). */
  forget(sessionId: string): void {
    this.cache.delete(sessionId);
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
      .where(
        and(
          eq(sessions.guestId, guestId),
          eq(sessions.isGuest, true),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`now()`),
        ),
      )
      .limit(1);
    return row ?? null;
  }
}
