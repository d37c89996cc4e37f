import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { isUuid } from '#shared/schemas/common.js';
import type { RequesterContext } from '#shared/schemas/tickets.js';
import type { Db } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { catalogueItems, orders } from '#server/modules/catalogue/catalogue.tables.js';
import { exchanges } from '#server/modules/exchange/exchange.tables.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { twoFactorStatus } from '#server/modules/auth/two-factor-summary.js';
import { users } from '#server/modules/users/users.tables.js';
import { tickets } from './tickets.tables.js';

/** How many of each kind of money row the context shows (the newest). */
export const REQUESTER_CONTEXT_ROWS = 5;

/**
 * Beside a ticket, staff see who asks and the state of their money without leaving the desk
 * (docs/decisions/0291): for a user their account, balance and newest payments, exchanges and
 * orders; for a guest their exchanges; for both their other open tickets. Read-only, for every staff
 * role; secrets (password, two-factor secrets, tokens) never appear.
 */
export async function requesterContext(db: Db, ticketId: string): Promise<RequesterContext> {
  if (!isUuid(ticketId)) throw notFound('Ticket not found');
  const [ticket] = await db
    .select({ id: tickets.id, userId: tickets.userId, guestId: tickets.guestId })
    .from(tickets)
    .where(eq(tickets.id, ticketId))
    .limit(1);
  if (!ticket) throw notFound('Ticket not found');
  const owner = ticket.userId ? eq(tickets.userId, ticket.userId) : eq(tickets.guestId, ticket.guestId!);
  const openTickets = await db
    .select({ id: tickets.id, number: tickets.number, subject: tickets.subject, status: tickets.status })
    .from(tickets)
    .where(and(owner, ne(tickets.id, ticket.id), inArray(tickets.status, ['open', 'pending'])))
    .orderBy(desc(tickets.lastMessageAt))
    .limit(10);
  const exchangeRows = await db
    .select()
    .from(exchanges)
    .where(ticket.userId ? eq(exchanges.userId, ticket.userId) : eq(exchanges.guestId, ticket.guestId!))
    .orderBy(desc(exchanges.createdAt))
    .limit(REQUESTER_CONTEXT_ROWS);
  const exchangeList = exchangeRows.map((e) => ({
    id: e.id,
    status: e.status,
    amountCents: e.usdValueCents,
    label: `${e.amountFrom} ${e.fromCurrency} → ${e.toCurrency}`,
    createdAt: e.createdAt.toISOString(),
  }));
  const base = { openTickets: openTickets.map((t) => ({ ...t, status: t.status as 'open' | 'pending' })), exchanges: exchangeList };
  if (!ticket.userId) return { kind: 'guest', account: null, payments: [], orders: [], ...base };

  const [user] = await db.select().from(users).where(eq(users.id, ticket.userId)).limit(1);
  if (!user) throw notFound('Ticket not found');
  const [paymentRows, orderRows, twoFactor] = await Promise.all([
    db.select().from(payments).where(eq(payments.userId, user.id)).orderBy(desc(payments.createdAt)).limit(REQUESTER_CONTEXT_ROWS),
    db
      .select({
        id: orders.id,
        status: orders.status,
        priceCents: orders.priceCents,
        createdAt: orders.createdAt,
        name: catalogueItems.name,
      })
      .from(orders)
      .leftJoin(catalogueItems, eq(catalogueItems.id, orders.itemId))
      .where(eq(orders.userId, user.id))
      .orderBy(desc(orders.createdAt))
      .limit(REQUESTER_CONTEXT_ROWS),
    twoFactorStatus(db, user.id),
  ]);
  return {
    kind: 'user',
    account: {
      id: user.id,
      username: user.username,
      email: user.email,
      role: user.role,
      createdAt: user.createdAt.toISOString(),
      emailVerified: user.emailVerifiedAt !== null,
      twoFactor: { totp: twoFactor.totp, passkeys: twoFactor.passkeys },
      disabled: user.disabledAt !== null,
      balanceCents: user.creditsCents,
    },
    payments: paymentRows.map((p) => ({
      id: p.id,
      status: p.status,
      amountCents: p.creditsCents,
      label: `${p.payCurrency} top-up`,
      createdAt: p.createdAt.toISOString(),
    })),
    orders: orderRows.map((o) => ({
      id: o.id,
      status: o.status,
      amountCents: o.priceCents,
      label: o.name ?? 'Item',
      createdAt: o.createdAt.toISOString(),
    })),
    ...base,
  };
}
