import { and, eq, isNull, sql } from 'drizzle-orm';
import type { CreateTicketBody, RateTicketBody, Ticket, TicketListResponse } from '#shared/schemas/tickets.js';
import type { Db } from '#server/db/client.js';
import { AppError, unprocessable } from '#server/errors.js';
import { emitRuleEvents } from './ticket-events.js';
import { addMessage, findOwned, ownedBy, ticketPage, withMessages, type Requester, type TicketDeps } from './ticket-rows.js';
import { tickets } from './tickets.tables.js';

/** What a requester (a user or a guest) does with their own tickets: open, list, read, reply, close or reopen, rate. */

export async function createTicket(
  deps: Pick<TicketDeps, 'db' | 'ruleEvents'>,
  requester: Requester,
  body: CreateTicketBody,
): Promise<Ticket> {
  const row = await deps.db.transaction(async (tx) => {
    const [ticket] = await tx
      .insert(tickets)
      .values({
        userId: requester.kind === 'user' ? requester.userId : null,
        guestId: requester.kind === 'guest' ? requester.guestId : null,
        subject: body.subject,
        category: body.category,
        priority: body.priority,
      })
      .returning();
    const authorUserId = requester.kind === 'user' ? requester.userId : null;
    const created = (await addMessage(tx, ticket!, 'requester', authorUserId, body.message, 'open')).ticket;
    await emitRuleEvents(deps.ruleEvents, tx, null, created, 'requester'); // automation rules (decision 0294)
    return created;
  });
  return withMessages(deps.db, row, 'requester');
}

export async function listMine(
  db: Db,
  requester: Requester,
  query: { status?: string | undefined; page: number; pageSize: number },
): Promise<TicketListResponse> {
  const where = and(ownedBy(requester), query.status ? eq(tickets.status, query.status) : undefined);
  const mine = await ticketPage(db, where, query.page, query.pageSize);
  return { ...mine, tickets: mine.tickets.map((t) => ({ ...t, tags: undefined })) }; // staff labels stay with staff (decision 0294)
}

export async function getMine(db: Db, requester: Requester, id: string): Promise<Ticket> {
  return withMessages(db, await findOwned(db, requester, id), 'requester');
}

/** A requester's reply re-opens the ticket for staff, unless it was closed. */
export async function replyAsRequester(
  deps: Pick<TicketDeps, 'db' | 'ruleEvents'>,
  requester: Requester,
  id: string,
  message: string,
): Promise<Ticket> {
  const row = await deps.db.transaction(async (tx) => {
    const ticket = await findOwned(tx, requester, id);
    if (ticket.status === 'closed') {
      throw unprocessable('This ticket is closed. Open a new ticket to continue.', 'TICKET_CLOSED');
    }
    const added = await addMessage(tx, ticket, 'requester', requester.kind === 'user' ? requester.userId : null, message, 'open');
    await emitRuleEvents(deps.ruleEvents, tx, ticket, added.ticket, 'requester', added.messageId); // automation rules (decision 0294)
    return added.ticket;
  });
  return withMessages(deps.db, row, 'requester');
}

export async function setStatusAsRequester(
  deps: Pick<TicketDeps, 'db' | 'ruleEvents'>,
  requester: Requester,
  id: string,
  status: 'open' | 'closed',
): Promise<Ticket> {
  const ticket = await findOwned(deps.db, requester, id);
  if (ticket.mergedInto && status === 'open') {
    throw unprocessable('This ticket was merged into another one: continue there.', 'TICKET_MERGED');
  }
  const row = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(tickets)
      .set({ status, updatedAt: sql`now()` })
      .where(eq(tickets.id, ticket.id))
      .returning();
    await emitRuleEvents(deps.ruleEvents, tx, ticket, updated!, 'requester'); // automation rules (decision 0294)
    return updated!;
  });
  return withMessages(deps.db, row, 'requester');
}

/**
 * The requester rates the answer once, after the ticket is resolved or closed (decision 0190: a
 * rating is final, so the average cannot be nudged by edits; a second try is 409).
 */
export async function rateTicket(db: Db, requester: Requester, id: string, body: RateTicketBody): Promise<Ticket> {
  const ticket = await findOwned(db, requester, id);
  if (ticket.mergedInto) throw unprocessable('This ticket was merged into another one: rate that one instead.', 'TICKET_MERGED');
  if (ticket.status !== 'closed' && ticket.status !== 'resolved') {
    throw unprocessable('A ticket can be rated once it is resolved or closed.', 'TICKET_NOT_CLOSED');
  }
  const [row] = await db
    .update(tickets)
    .set({ rating: body.score, ratingComment: body.comment ? body.comment : null, ratedAt: sql`now()` })
    .where(and(eq(tickets.id, ticket.id), isNull(tickets.ratedAt)))
    .returning();
  if (!row) throw new AppError('TICKET_ALREADY_RATED', 'This ticket has already been rated.');
  return withMessages(db, row, 'requester');
}
