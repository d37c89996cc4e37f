import { and, count, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Role } from '#shared/constants.js';
import type { AdminUser, OverviewResponse } from '#shared/schemas/admin.js';
import type { Db } from '#server/db/client.js';
import { notFound, unprocessable } from '#server/errors.js';
import type { SessionStore } from '#server/modules/auth/sessions.service.js';
import { sessions } from '#server/modules/auth/sessions.tables.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { tickets } from '#server/modules/support/tickets/tickets.tables.js';
import { findUserById, toUserDto, voidAccountLinks } from '#server/modules/users/users.service.js';
import { users, type UserRow } from '#server/modules/users/users.tables.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';

export interface Actor {
  id: string;
  username: string;
}

function toAdminUser(row: UserRow, lastSeenAt: Date | null = null): AdminUser {
  return { ...toUserDto(row), disabled: row.disabledAt !== null, lastSeenAt: lastSeenAt ? lastSeenAt.toISOString() : null };
}

function parseUuid(id: string): string | null {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id.toLowerCase() : null;
}

/** The operator console's user work (decision 0234): every change is audited in its transaction. */
export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly sessionStore: SessionStore,
  ) {}

  async actor(userId: string): Promise<Actor> {
    const row = await findUserById(this.db, userId);
    return { id: userId, username: row?.username ?? 'unknown' };
  }

  async searchUsers(query: { search?: string | undefined; role?: string | undefined; page: number; pageSize: number }) {
    const conditions: Array<SQL | undefined> = [query.role ? eq(users.role, query.role) : undefined];
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const asId = parseUuid(query.search);
      conditions.push(
        sql`(${users.username} ILIKE ${pattern} OR ${users.email} ILIKE ${pattern} OR ${users.referralCode} = ${query.search.toUpperCase()}${asId ? sql` OR ${users.id} = ${asId}` : sql``})`,
      );
    }
    const where = and(...conditions);
    const rows = await this.db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const [total] = await this.db.select({ n: count() }).from(users).where(where);
    return { users: rows.map((r) => toAdminUser(r)), page: query.page, pageSize: query.pageSize, total: total?.n ?? 0 };
  }

  private async load(id: string): Promise<UserRow> {
    const userId = parseUuid(id);
    const row = userId ? await findUserById(this.db, userId) : null;
    if (!row) throw notFound('User not found');
    return row;
  }

  async userDetail(id: string) {
    const row = await this.load(id);
    const active = await this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, row.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(desc(sessions.lastSeenAt));
    const [[ticketCount], [paymentCount], [ledgerCount]] = await Promise.all([
      this.db.select({ n: count() }).from(tickets).where(eq(tickets.userId, row.id)),
      this.db.select({ n: count() }).from(payments).where(eq(payments.userId, row.id)),
      this.db.select({ n: count() }).from(creditLedgerEntries).where(eq(creditLedgerEntries.userId, row.id)),
    ]);
    return {
      user: toAdminUser(row, active[0]?.lastSeenAt ?? null),
      sessions: active.map((s) => ({
        _id: s.id,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        ip: s.ip,
        userAgent: s.userAgent,
      })),
      counts: { tickets: ticketCount?.n ?? 0, payments: paymentCount?.n ?? 0, ledgerEntries: ledgerCount?.n ?? 0 },
    };
  }

  async changeRole(actor: Actor, id: string, change: { role: Role; subroles?: string[] | undefined }): Promise<AdminUser> {
    const target = await this.load(id);
    if (target.id === actor.id && change.role !== 'admin') {
      throw unprocessable('You cannot remove your own admin role', 'SELF_DEMOTION');
    }
    noteUserChanging(target.id);
    const updated = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({
          role: change.role,
          ...(change.subroles ? { subroles: change.subroles } : {}),
          // Staff never see the customer onboarding (docs/decisions/0236).
          ...(change.role !== 'user' ? { onboardingCompleted: true } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, target.id))
        .returning();
      await recordAudit(tx, {
        actor,
        action: 'user.role_changed',
        targetType: 'user',
        targetId: target.id,
        before: { role: target.role, subroles: target.subroles },
        after: { role: row!.role, subroles: row!.subroles },
      });
      return row!;
    });
    return toAdminUser(updated);
  }

  /** Disabling ends every session of the account at once; re-enabling lets it sign in again. */
  async setDisabled(actor: Actor, id: string, disabled: boolean, reason: string): Promise<AdminUser> {
    const target = await this.load(id);
    if (target.id === actor.id) throw unprocessable('You cannot disable your own account', 'SELF_DISABLE');
    noteUserChanging(target.id);
    const updated = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        // Disabling also voids the account's outstanding one-time links (decision 0200).
        .set({
          disabledAt: disabled ? (target.disabledAt ?? new Date()) : null,
          updatedAt: sql`now()`,
          ...(disabled ? voidAccountLinks() : {}),
        })
        .where(eq(users.id, target.id))
        .returning();
      let ended: string[] = [];
      if (disabled) ended = await this.sessionStore.revokeAllForUser(tx, target.id);
      await recordAudit(tx, {
        actor,
        action: disabled ? 'user.disabled' : 'user.enabled',
        targetType: 'user',
        targetId: target.id,
        before: { disabled: target.disabledAt !== null },
        after: { disabled, sessionsEnded: ended.length },
        reason,
      });
      return row!;
    });
    return toAdminUser(updated);
  }

  async overview(days: number): Promise<OverviewResponse> {
    const result = await this.db.execute<{
      day: string;
      signups: number;
      deposits: number;
      deposited_cents: number;
      issued_cents: number;
      spent_cents: number;
      tickets_opened: number;
      open_tickets: number;
    }>(sql`
      WITH d AS (
        SELECT generate_series((now() AT TIME ZONE 'UTC')::date - (${days}::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day
      )
      SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
        (SELECT count(*) FROM users u WHERE (u.created_at AT TIME ZONE 'UTC')::date = d.day)::int AS signups,
        (SELECT count(*) FROM credit_ledger_entries e WHERE e.kind = 'payment' AND (e.created_at AT TIME ZONE 'UTC')::date = d.day)::int AS deposits,
        (SELECT coalesce(sum(e.amount_cents), 0) FROM credit_ledger_entries e WHERE e.kind = 'payment' AND (e.created_at AT TIME ZONE 'UTC')::date = d.day)::bigint AS deposited_cents,
        (SELECT coalesce(sum(e.amount_cents), 0) FROM credit_ledger_entries e WHERE e.amount_cents > 0 AND (e.created_at AT TIME ZONE 'UTC')::date = d.day)::bigint AS issued_cents,
        (SELECT coalesce(-sum(e.amount_cents), 0) FROM credit_ledger_entries e WHERE e.amount_cents < 0 AND (e.created_at AT TIME ZONE 'UTC')::date = d.day)::bigint AS spent_cents,
        (SELECT count(*) FROM tickets t WHERE (t.created_at AT TIME ZONE 'UTC')::date = d.day)::int AS tickets_opened,
        (SELECT count(*) FROM tickets t WHERE (t.created_at AT TIME ZONE 'UTC')::date <= d.day
          AND (t.closed_at IS NULL OR (t.closed_at AT TIME ZONE 'UTC')::date > d.day))::int AS open_tickets
      FROM d ORDER BY d.day
    `);
    const [[open], [total]] = await Promise.all([
      this.db
        .select({ n: count() })
        .from(tickets)
        .where(sql`${tickets.status} in ('open', 'pending')`),
      this.db.select({ n: count() }).from(users),
    ]);
    return {
      days: result.rows.map((r) => ({
        day: r.day,
        signups: Number(r.signups),
        deposits: Number(r.deposits),
        depositedCents: Number(r.deposited_cents),
        creditsIssuedCents: Number(r.issued_cents),
        creditsSpentCents: Number(r.spent_cents),
        ticketsOpened: Number(r.tickets_opened),
        openTickets: Number(r.open_tickets),
      })),
      openTickets: open?.n ?? 0,
      totalUsers: total?.n ?? 0,
    };
  }
}
