import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Debt, FlaggedAccount } from '#shared/schemas/debts.js';
import type { DbOrTx } from '#server/db/client.js';
import { users } from '#server/modules/users/users.tables.js';
import { creditDebts, type CreditDebtRow } from './credits.tables.js';

export function toDebtDto(row: CreditDebtRow): Debt {
  return {
    _id: row.id,
    paymentId: row.paymentId,
    reason: row.reason,
    amountCents: row.amountCents,
    outstandingCents: row.outstandingCents,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    settledAt: row.settledAt ? row.settledAt.toISOString() : null,
  };
}

/**
 * Accounts flagged for staff: those that owe credits (docs/decisions/0120), most owed first, or one
 * account (owing or not) when `userId` is given. Each with its debts, open ones first.
 */
export async function flaggedAccounts(db: DbOrTx, userId?: string): Promise<FlaggedAccount[]> {
  const sums = await db
    .select({
      userId: creditDebts.userId,
      outstanding: sql<string>`sum(${creditDebts.outstandingCents})`,
      open: sql<string>`count(*) filter (where ${creditDebts.outstandingCents} > 0)`,
      since: sql<Date>`min(${creditDebts.createdAt})`,
    })
    .from(creditDebts)
    .where(userId ? eq(creditDebts.userId, userId) : gt(creditDebts.outstandingCents, 0))
    .groupBy(creditDebts.userId)
    .orderBy(desc(sql`sum(${creditDebts.outstandingCents})`), creditDebts.userId)
    .limit(100);
  if (sums.length === 0) return [];
  const ids = sums.map((s) => s.userId);
  const names = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids));
  const rows = await db
    .select()
    .from(creditDebts)
    .where(and(inArray(creditDebts.userId, ids), userId ? undefined : gt(creditDebts.outstandingCents, 0)))
    .orderBy(desc(creditDebts.createdAt));
  return sums.map((s) => ({
    userId: s.userId,
    username: names.find((n) => n.id === s.userId)?.username ?? null,
    outstandingCents: Number(s.outstanding),
    openDebts: Number(s.open),
    since: new Date(s.since).toISOString(),
    debts: rows.filter((r) => r.userId === s.userId).map(toDebtDto),
  }));
}
