import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Ticket, TicketAttachment, TicketListResponse, TicketMessage } from '#shared/schemas/tickets.js';
import type { SlaQueueFilter } from '#shared/schemas/support-sla.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { users } from '#server/modules/users/users.tables.js';
import { findUserLocale } from '#server/modules/users/users.service.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import type { AttachmentStore } from './attachments.js';
import type { TicketEventSink } from './ticket-events.js';
import { ticketAttachments, ticketMessages, tickets, type TicketMessageRow, type TicketRow } from './tickets.tables.js';

/**
 * What the ticket use cases share: who asks, the rows as the API shows them, the lookups that answer
 * 404 and the one writer of messages. TicketService (tickets.service.ts) hands each use case its deps.
 */

/** Who asks: a signed-in user or a guest. Staff act on every ticket. */
export type Requester = { kind: 'user'; userId: string } | { kind: 'guest'; guestId: string };
export interface StaffMember {
  userId: string;
}

/** What the use cases of the desk are handed (TicketService's constructor arguments). */
export interface TicketDeps {
  db: Db;
  /** Where a visible answer is reported (the requester's webhook, mail and notice subscribe). */
  events: DomainEvents;
  files?: AttachmentStore | undefined;
  /** Queues events for the automation rules (the rules part, decision 0294). */
  ruleEvents?: TicketEventSink | undefined;
  /** The queue's SLA filter as a condition on tickets (the SLA part, decision 0293). */
  slaCondition?: ((db: DbOrTx, filter: SlaQueueFilter) => Promise<SQL>) | undefined;
}

const STAFF_NAME = 'Olympus Support';

export function ownedBy(requester: Requester): SQL {
  return requester.kind === 'user' ? eq(tickets.userId, requester.userId) : eq(tickets.guestId, requester.guestId);
}

/** How an erased account is named wherever its tickets and messages are shown. */
export const DELETED_USER_NAME = 'Deleted user';

async function namesFor(db: DbOrTx, ids: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username, erasedAt: users.erasedAt })
    .from(users)
    .where(inArray(users.id, wanted));
  // An erased account's messages stay for staff, under a name that says what happened (decision 0255).
  return new Map(rows.map((r) => [r.id, r.erasedAt ? DELETED_USER_NAME : r.username]));
}

async function toDtos(db: DbOrTx, rows: TicketRow[]): Promise<Ticket[]> {
  const names = await namesFor(
    db,
    rows.flatMap((r) => [r.userId, r.assignedTo]),
  );
  const targetIds = [...new Set(rows.map((r) => r.mergedInto).filter((id): id is string => Boolean(id)))];
  const targets = targetIds.length
    ? new Map(
        (await db.select({ id: tickets.id, number: tickets.number }).from(tickets).where(inArray(tickets.id, targetIds))).map((r) => [
          r.id,
          r.number,
        ]),
      )
    : new Map<string, number>();
  return rows.map((row) => ({
    _id: row.id,
    number: row.number,
    subject: row.subject,
    category: row.category as Ticket['category'],
    priority: row.priority as Ticket['priority'],
    status: row.status as Ticket['status'],
    requester: row.userId ? { type: 'user' as const, name: names.get(row.userId) ?? 'User' } : { type: 'guest' as const, name: 'Guest' },
    assignedTo: row.assignedTo ? { _id: row.assignedTo, username: names.get(row.assignedTo) ?? 'Staff' } : null,
    messageCount: row.messageCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastMessageAt: row.lastMessageAt.toISOString(),
    firstResponseAt: row.firstResponseAt?.toISOString() ?? null,
    mergedInto: row.mergedInto && targets.has(row.mergedInto) ? { _id: row.mergedInto, number: targets.get(row.mergedInto)! } : null,
    rating:
      row.rating !== null && row.ratedAt ? { score: row.rating, comment: row.ratingComment, ratedAt: row.ratedAt.toISOString() } : null,
    tags: row.tags,
  }));
}

/** Who reads a ticket: its requester never gets internal notes (nor files on them). */
export type Viewer = 'requester' | 'staff';

async function messagesFor(db: DbOrTx, ticket: TicketRow, requesterName: string, viewer: Viewer): Promise<TicketMessage[]> {
  // The filter is in the query: an internal note never leaves the database for a requester.
  const rows: TicketMessageRow[] = await db
    .select()
    .from(ticketMessages)
    .where(and(eq(ticketMessages.ticketId, ticket.id), viewer === 'requester' ? ne(ticketMessages.kind, 'internal') : undefined))
    .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id));
  const staffNames = await namesFor(
    db,
    rows.filter((m) => m.author === 'staff').map((m) => m.authorUserId),
  );
  const files = rows.length
    ? await db
        .select()
        .from(ticketAttachments)
        .where(
          inArray(
            ticketAttachments.messageId,
            rows.map((m) => m.id),
          ),
        )
        .orderBy(asc(ticketAttachments.createdAt))
    : [];
  return rows.map((m) => ({
    _id: m.id,
    author: m.author as TicketMessage['author'],
    authorName: m.author === 'staff' ? (m.authorUserId ? (staffNames.get(m.authorUserId) ?? STAFF_NAME) : STAFF_NAME) : requesterName,
    body: m.body,
    createdAt: m.createdAt.toISOString(),
    kind: m.kind as TicketMessage['kind'],
    attachments: files
      .filter((f) => f.messageId === m.id)
      .map((f) => ({ _id: f.id, filename: f.filename, contentType: f.contentType as TicketAttachment['contentType'], size: f.size })),
  }));
}

export async function withMessages(db: DbOrTx, row: TicketRow, viewer: Viewer): Promise<Ticket> {
  const [dto] = await toDtos(db, [row]);
  // Staff see which language the requester reads (docs/decisions/0328): the answer should be in it.
  const requester =
    viewer === 'staff' ? { ...dto!.requester, locale: row.userId ? await findUserLocale(db, row.userId) : null } : dto!.requester;
  // Tags are staff labels (decision 0294): never shown to the requester.
  return {
    ...dto!,
    requester,
    tags: viewer === 'staff' ? dto!.tags : undefined,
    messages: await messagesFor(db, row, dto!.requester.name, viewer),
  };
}

/** One page of tickets, most recent activity first, with the total that match. */
export async function ticketPage(db: Db, where: SQL | undefined, page: number, pageSize: number): Promise<TicketListResponse> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(tickets)
      .where(where)
      .orderBy(desc(tickets.lastMessageAt), desc(tickets.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ value: count() }).from(tickets).where(where),
  ]);
  return { tickets: await toDtos(db, rows), page, pageSize, total: Number(total?.value ?? 0) };
}

/** What the audit log keeps of a ticket before and after a staff action. */
export function auditView(row: TicketRow) {
  return {
    status: row.status,
    priority: row.priority,
    assignedTo: row.assignedTo,
    messageCount: row.messageCount,
    mergedInto: row.mergedInto,
  };
}

export async function staffActor(db: DbOrTx, staff: StaffMember): Promise<{ id: string; username: string }> {
  const names = await namesFor(db, [staff.userId]);
  return { id: staff.userId, username: names.get(staff.userId) ?? 'unknown' };
}

export function parseId(id: string): string | null {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id.toLowerCase() : null;
}

/** The ticket if `requester` owns it; anyone else gets 404, never a hint that it exists. */
export async function findOwned(db: DbOrTx, requester: Requester, id: string): Promise<TicketRow> {
  const ticketId = parseId(id);
  if (!ticketId) throw notFound('Ticket not found');
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.id, ticketId), ownedBy(requester)))
    .limit(1);
  if (!row) throw notFound('Ticket not found');
  return row;
}

export async function findAny(db: DbOrTx, id: string): Promise<TicketRow> {
  const ticketId = parseId(id);
  if (!ticketId) throw notFound('Ticket not found');
  const [row] = await db.select().from(tickets).where(eq(tickets.id, ticketId)).limit(1);
  if (!row) throw notFound('Ticket not found');
  return row;
}

/**
 * Adds a message. A reply or notice counts in messageCount and moves lastMessageAt (both are shown to the
 * requester); an internal note touches neither, so nothing the requester sees reveals it. The first
 * visible staff reply starts nothing else: it stops the first-response timer.
 */
export async function addMessage(
  tx: Tx,
  ticket: TicketRow,
  author: 'requester' | 'staff',
  authorUserId: string | null,
  body: string,
  nextStatus: string,
  kind: 'reply' | 'internal' | 'event' = 'reply',
): Promise<{ ticket: TicketRow; messageId: string }> {
  const [message] = await tx
    .insert(ticketMessages)
    .values({ ticketId: ticket.id, author, authorUserId, body, kind })
    .returning({ id: ticketMessages.id });
  if (kind === 'internal') return { ticket, messageId: message!.id };
  const [updated] = await tx
    .update(tickets)
    .set({
      status: nextStatus,
      messageCount: sql`${tickets.messageCount} + 1`,
      lastMessageAt: sql`now()`,
      updatedAt: sql`now()`,
      ...(author === 'staff' && kind === 'reply' ? { firstResponseAt: sql`coalesce(${tickets.firstResponseAt}, now())` } : {}),
    })
    .where(eq(tickets.id, ticket.id))
    .returning();
  return { ticket: updated!, messageId: message!.id };
}
