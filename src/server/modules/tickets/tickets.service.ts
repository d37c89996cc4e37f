import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type {
  CreateTicketBody,
  Ticket,
  TicketListResponse,
  TicketMessage,
} from '#shared/schemas/tickets.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import { notFound, unprocessable } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { users } from '#server/modules/users/users.tables.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { notifyTicketReply } from '#server/modules/mail/notifications.js';
import { ticketMessages, tickets, type TicketMessageRow, type TicketRow } from './tickets.tables.js';

/** Who asks: a signed-in user or a guest. Staff act on every ticket. */
export type Requester = { kind: 'user'; userId: string } | { kind: 'guest'; guestId: string };
export interface StaffMember {
  userId: string;
}

const STAFF_NAME = 'Olympus Support';

function ownedBy(requester: Requester): SQL {
  return requester.kind === 'user' ? eq(tickets.userId, requester.userId) : eq(tickets.guestId, requester.guestId);
}

/** Escapes LIKE wildcards so a search for "100%" means exactly that. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

async function namesFor(db: DbOrTx, ids: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r.username]));
}

async function toDtos(db: DbOrTx, rows: TicketRow[]): Promise<Ticket[]> {
  const names = await namesFor(db, rows.flatMap((r) => [r.userId, r.assignedTo]));
  return rows.map((row) => ({
    _id: row.id,
    number: row.number,
    subject: row.subject,
    category: row.category as Ticket['category'],
    priority: row.priority as Ticket['priority'],
    status: row.status as Ticket['status'],
    requester: row.userId
      ? { type: 'user' as const, name: names.get(row.userId) ?? 'User' }
      : { type: 'guest' as const, name: 'Guest' },
    assignedTo: row.assignedTo ? { _id: row.assignedTo, username: names.get(row.assignedTo) ?? 'Staff' } : null,
    messageCount: row.messageCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastMessageAt: row.lastMessageAt.toISOString(),
  }));
}

async function messagesFor(db: DbOrTx, ticket: TicketRow, requesterName: string): Promise<TicketMessage[]> {
  const rows: TicketMessageRow[] = await db
    .select()
    .from(ticketMessages)
    .where(eq(ticketMessages.ticketId, ticket.id))
    .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id));
  const staffNames = await namesFor(db, rows.filter((m) => m.author === 'staff').map((m) => m.authorUserId));
  return rows.map((m) => ({
    _id: m.id,
    author: m.author as TicketMessage['author'],
    authorName: m.author === 'staff' ? (m.authorUserId ? (staffNames.get(m.authorUserId) ?? STAFF_NAME) : STAFF_NAME) : requesterName,
    body: m.body,
    createdAt: m.createdAt.toISOString(),
  }));
}

async function withMessages(db: DbOrTx, row: TicketRow): Promise<Ticket> {
  const [dto] = await toDtos(db, [row]);
  return { ...dto!, messages: await messagesFor(db, row, dto!.requester.name) };
}

/** What the audit log keeps of a ticket before and after a staff action. */
function auditView(row: TicketRow) {
  return { status: row.status, priority: row.priority, assignedTo: row.assignedTo, messageCount: row.messageCount };
}

async function staffActor(db: DbOrTx, staff: StaffMember): Promise<{ id: string; username: string }> {
  const names = await namesFor(db, [staff.userId]);
  return { id: staff.userId, username: names.get(staff.userId) ?? 'unknown' };
}

function parseId(id: string): string | null {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id.toLowerCase() : null;
}

/** The ticket if `requester` owns it; anyone else gets 404, never a hint that it exists. */
async function findOwned(db: DbOrTx, requester: Requester, id: string): Promise<TicketRow> {
  const ticketId = parseId(id);
  if (!ticketId) throw notFound('Ticket not found');
  const [row] = await db.select().from(tickets).where(and(eq(tickets.id, ticketId), ownedBy(requester))).limit(1);
  if (!row) throw notFound('Ticket not found');
  return row;
}

async function findAny(db: DbOrTx, id: string): Promise<TicketRow> {
  const ticketId = parseId(id);
  if (!ticketId) throw notFound('Ticket not found');
  const [row] = await db.select().from(tickets).where(eq(tickets.id, ticketId)).limit(1);
  if (!row) throw notFound('Ticket not found');
  return row;
}

async function addMessage(tx: Tx, ticket: TicketRow, author: 'requester' | 'staff', authorUserId: string | null, body: string, nextStatus: string) {
  await tx.insert(ticketMessages).values({ ticketId: ticket.id, author, authorUserId, body });
  const [updated] = await tx
    .update(tickets)
    .set({
      status: nextStatus,
      messageCount: sql`${tickets.messageCount} + 1`,
      lastMessageAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(tickets.id, ticket.id))
    .returning();
  return updated!;
}

export class TicketService {
  constructor(
    private readonly db: Db,
    private readonly webhookEvents: WebhookEvents,
    private readonly mail?: MailService,
  ) {}

  async create(requester: Requester, body: CreateTicketBody): Promise<Ticket> {
    const row = await this.db.transaction(async (tx) => {
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
      return addMessage(tx, ticket!, 'requester', authorUserId, body.message, 'open');
    });
    return withMessages(this.db, row);
  }

  async listMine(requester: Requester, query: { status?: string | undefined; page: number; pageSize: number }): Promise<TicketListResponse> {
    const where = and(ownedBy(requester), query.status ? eq(tickets.status, query.status) : undefined);
    return this.page(where, query.page, query.pageSize);
  }

  async getMine(requester: Requester, id: string): Promise<Ticket> {
    return withMessages(this.db, await findOwned(this.db, requester, id));
  }

  /** A requester's reply re-opens the ticket for staff, unless it was closed. */
  async replyAsRequester(requester: Requester, id: string, message: string): Promise<Ticket> {
    const row = await this.db.transaction(async (tx) => {
      const ticket = await findOwned(tx, requester, id);
      if (ticket.status === 'closed') {
        throw unprocessable('This ticket is closed. Open a new ticket to continue.', 'TICKET_CLOSED');
      }
      return addMessage(tx, ticket, 'requester', requester.kind === 'user' ? requester.userId : null, message, 'open');
    });
    return withMessages(this.db, row);
  }

  async setStatusAsRequester(requester: Requester, id: string, status: 'open' | 'closed'): Promise<Ticket> {
    const ticket = await findOwned(this.db, requester, id);
    const [row] = await this.db
      .update(tickets)
      .set({ status, updatedAt: sql`now()` })
      .where(eq(tickets.id, ticket.id))
      .returning();
    return withMessages(this.db, row!);
  }

  async listAll(query: {
    status?: string | undefined;
    priority?: string | undefined;
    search?: string | undefined;
    assigned: 'me' | 'unassigned' | 'any';
    userId?: string | undefined;
    page: number;
    pageSize: number;
  }, staff: StaffMember): Promise<TicketListResponse> {
    const conditions: Array<SQL | undefined> = [
      query.status ? eq(tickets.status, query.status) : undefined,
      query.priority ? eq(tickets.priority, query.priority) : undefined,
      query.assigned === 'me' ? eq(tickets.assignedTo, staff.userId) : undefined,
      query.assigned === 'unassigned' ? isNull(tickets.assignedTo) : undefined,
      query.userId ? eq(tickets.userId, query.userId) : undefined,
    ];
    if (query.search) {
      const pattern = likePattern(query.search);
      const asNumber = /^\d{1,9}$/.test(query.search) ? Number(query.search) : null;
      conditions.push(
        sql`(${tickets.subject} ILIKE ${pattern} OR ${tickets.userId} IN (SELECT ${users.id} FROM ${users} WHERE ${users.username} ILIKE ${pattern})${asNumber !== null ? sql` OR ${tickets.number} = ${asNumber}` : sql``})`,
      );
    }
    return this.page(and(...conditions), query.page, query.pageSize);
  }

  async getAny(id: string): Promise<Ticket> {
    return withMessages(this.db, await findAny(this.db, id));
  }

  /** A staff answer waits on the requester (pending), and assigns an unassigned ticket to whoever answered. */
  async replyAsStaff(staff: StaffMember, id: string, message: string): Promise<Ticket> {
    const row = await this.db.transaction(async (tx) => {
      const ticket = await findAny(tx, id);
      const next = ticket.status === 'closed' || ticket.status === 'resolved' ? ticket.status : 'pending';
      const updated = await addMessage(tx, ticket, 'staff', staff.userId, message, next);
      if (ticket.userId) {
        await this.webhookEvents.enqueue(tx, ticket.userId, 'ticket.answered', { ticketId: ticket.id, number: ticket.number, subject: ticket.subject, status: next });
        await notifyTicketReply(this.mail, tx, { userId: ticket.userId, ticketId: ticket.id, number: ticket.number, subject: ticket.subject, message });
      }
      let after = updated;
      if (!updated.assignedTo) {
        const [assigned] = await tx.update(tickets).set({ assignedTo: staff.userId }).where(eq(tickets.id, ticket.id)).returning();
        after = assigned!;
      }
      // The answer and its audit record commit together (issue "Operator console": every staff action).
      await recordAudit(tx, {
        actor: await staffActor(tx, staff),
        action: 'ticket.answered',
        targetType: 'ticket',
        targetId: ticket.id,
        before: auditView(ticket),
        after: { ...auditView(after), message: message.length > 200 ? `${message.slice(0, 200)}…` : message },
      });
      return after;
    });
    return withMessages(this.db, row);
  }

  async updateAsStaff(staff: StaffMember, id: string, change: { status?: string | undefined; priority?: string | undefined; assignToMe?: boolean | undefined }): Promise<Ticket> {
    const row = await this.db.transaction(async (tx) => {
      const ticket = await findAny(tx, id);
      const [updated] = await tx
        .update(tickets)
        .set({
          ...(change.status ? { status: change.status } : {}),
          ...(change.priority ? { priority: change.priority } : {}),
          ...(change.assignToMe === true ? { assignedTo: staff.userId } : {}),
          ...(change.assignToMe === false ? { assignedTo: null } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(tickets.id, ticket.id))
        .returning();
      await recordAudit(tx, {
        actor: await staffActor(tx, staff),
        action: 'ticket.updated',
        targetType: 'ticket',
        targetId: ticket.id,
        before: auditView(ticket),
        after: auditView(updated!),
      });
      return updated!;
    });
    return withMessages(this.db, row);
  }

  private async page(where: SQL | undefined, page: number, pageSize: number): Promise<TicketListResponse> {
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(tickets)
        .where(where)
        .orderBy(desc(tickets.lastMessageAt), desc(tickets.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ value: count() }).from(tickets).where(where),
    ]);
    return { tickets: await toDtos(this.db, rows), page, pageSize, total: Number(total?.value ?? 0) };
  }
}

/** Guest tickets become the account's when that guest signs in or registers (design.md section 8). */
export async function moveGuestTicketsToUser(tx: Tx, guestId: string, userId: string): Promise<void> {
  await tx.update(tickets).set({ userId, guestId: null, updatedAt: sql`now()` }).where(eq(tickets.guestId, guestId));
}
