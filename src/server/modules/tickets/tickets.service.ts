import { and, asc, count, desc, eq, inArray, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type {
  CannedReply,
  CannedReplyBody,
  CreateTicketBody,
  RateTicketBody,
  Ticket,
  TicketAttachment,
  TicketListResponse,
  TicketMessage,
  TicketRatingStats,
} from '#shared/schemas/tickets.js';
import { randomUUID } from 'node:crypto';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import { AppError, notFound, unprocessable } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { users } from '#server/modules/users/users.tables.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { notifyTicketReply } from '#server/modules/mail/notifications.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { ticketReplyNotice } from '#server/modules/notifications/notices.js';
import type { AttachmentStore, CheckedFile } from './attachments.js';
import {
  ticketAttachments,
  ticketCannedReplies,
  ticketMessages,
  tickets,
  type TicketMessageRow,
  type TicketRow,
} from './tickets.tables.js';
import type { SlaQueueFilter } from '#shared/schemas/support-sla.js';

/** Who asks: a signed-in user or a guest. Staff act on every ticket. */
export type Requester = { kind: 'user'; userId: string } | { kind: 'guest'; guestId: string };
export interface StaffMember {
  userId: string;
}

const STAFF_NAME = 'Olympus Support';

/**
 * Automation rules (docs/decisions/0294): a change that may trigger rules queues a ticket event in its own
 * transaction. `origin` says who made the change; changes made by rules carry 'rule' and trigger nothing.
 */
export interface TicketEvent {
  kind: 'ticket_created' | 'requester_message' | 'status_changed';
  ticketId: string;
  /** Unique per occurrence: a rule runs at most once per (rule, ticket, key). */
  key: string;
  origin: 'requester' | 'staff' | 'rule' | 'system';
  /** The new status, for status_changed. */
  status?: string;
}
export type TicketEventSink = (tx: Tx, event: TicketEvent) => Promise<void>;

function ownedBy(requester: Requester): SQL {
  return requester.kind === 'user' ? eq(tickets.userId, requester.userId) : eq(tickets.guestId, requester.guestId);
}

/** Escapes LIKE wildcards so a search for "100%" means exactly that. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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

async function withMessages(db: DbOrTx, row: TicketRow, viewer: Viewer): Promise<Ticket> {
  const [dto] = await toDtos(db, [row]);
  // Tags are staff labels (decision 0294): never shown to the requester.
  return { ...dto!, tags: viewer === 'staff' ? dto!.tags : undefined, messages: await messagesFor(db, row, dto!.requester.name, viewer) };
}

/** What the audit log keeps of a ticket before and after a staff action. */
function auditView(row: TicketRow) {
  return {
    status: row.status,
    priority: row.priority,
    assignedTo: row.assignedTo,
    messageCount: row.messageCount,
    mergedInto: row.mergedInto,
  };
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
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.id, ticketId), ownedBy(requester)))
    .limit(1);
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

export class TicketService {
  constructor(
    private readonly db: Db,
    private readonly webhookEvents: WebhookEvents,
    private readonly mail?: MailService,
    private readonly files?: AttachmentStore,
    private readonly notifications?: NotificationsService,
    /** Queues events for the automation rules (support-rules module, decision 0294). */
    private readonly ruleEvents?: TicketEventSink,
    /** The queue's SLA filter as a condition on tickets (support-sla module, decision 0293). */
    private readonly slaCondition?: (db: DbOrTx, filter: SlaQueueFilter) => Promise<SQL>,
  ) {}

  /** Rule events of a change made by `origin`: the message it added, and its status change if any. */
  private async emitRuleEvents(
    tx: Tx,
    before: TicketRow | null,
    after: TicketRow,
    origin: TicketEvent['origin'],
    messageId?: string,
  ): Promise<void> {
    if (!this.ruleEvents) return;
    if (before === null) await this.ruleEvents(tx, { kind: 'ticket_created', ticketId: after.id, key: `created:${after.id}`, origin });
    else if (messageId && origin === 'requester')
      await this.ruleEvents(tx, { kind: 'requester_message', ticketId: after.id, key: `message:${messageId}`, origin });
    if (before && before.status !== after.status) {
      await this.ruleEvents(tx, {
        kind: 'status_changed',
        ticketId: after.id,
        key: `status:${after.id}:${randomUUID()}`,
        origin,
        status: after.status,
      });
    }
  }

  /**
   * A requester attaches a checked file: it comes as a new message (the note, or "Attached <name>"),
   * like a reply. The bytes are written first; a failed insert removes them again.
   */
  async attachAsRequester(
    requester: Requester,
    id: string,
    file: CheckedFile & { bytes: Buffer },
    note: string | undefined,
  ): Promise<Ticket> {
    const ticket = await findOwned(this.db, requester, id);
    if (ticket.status === 'closed') throw unprocessable('This ticket is closed. Open a new ticket to continue.', 'TICKET_CLOSED');
    const row = await this.withStoredFile(file, async (tx, key) => {
      const locked = await findOwned(tx, requester, id);
      if (locked.status === 'closed') throw unprocessable('This ticket is closed. Open a new ticket to continue.', 'TICKET_CLOSED');
      const added = await addMessage(
        tx,
        locked,
        'requester',
        requester.kind === 'user' ? requester.userId : null,
        note || `Attached ${file.filename}`,
        'open',
      );
      await tx.insert(ticketAttachments).values({
        ticketId: locked.id,
        messageId: added.messageId,
        storageKey: key,
        filename: file.filename,
        contentType: file.contentType,
        size: file.bytes.length,
      });
      await this.emitRuleEvents(tx, locked, added.ticket, 'requester', added.messageId); // automation rules (decision 0294)
      return added.ticket;
    });
    return withMessages(this.db, row, 'requester');
  }

  /** Staff attach a file as a visible answer (audited like one). */
  async attachAsStaff(staff: StaffMember, id: string, file: CheckedFile & { bytes: Buffer }, note: string | undefined): Promise<Ticket> {
    await findAny(this.db, id);
    const row = await this.withStoredFile(file, async (tx, key) => {
      const ticket = await findAny(tx, id);
      const added = await this.answerWithIdIn(tx, staff, ticket, note || `Attached ${file.filename}`);
      await tx.insert(ticketAttachments).values({
        ticketId: ticket.id,
        messageId: added.messageId,
        storageKey: key,
        filename: file.filename,
        contentType: file.contentType,
        size: file.bytes.length,
      });
      await recordAudit(tx, {
        actor: await staffActor(tx, staff),
        action: 'ticket.file_attached',
        targetType: 'ticket',
        targetId: ticket.id,
        before: auditView(ticket),
        after: { ...auditView(added.ticket), file: { filename: file.filename, contentType: file.contentType, size: file.bytes.length } },
      });
      return added.ticket;
    });
    return withMessages(this.db, row, 'staff');
  }

  /** A file of the requester's own ticket, never one on an internal note; 404 otherwise. */
  async attachmentForRequester(requester: Requester, ticketId: string, attachmentId: string) {
    const ticket = await findOwned(this.db, requester, ticketId);
    return this.readAttachment(ticket.id, attachmentId, true);
  }

  async attachmentForStaff(ticketId: string, attachmentId: string) {
    const ticket = await findAny(this.db, ticketId);
    return this.readAttachment(ticket.id, attachmentId, false);
  }

  private async readAttachment(ticketId: string, attachmentId: string, requesterOnly: boolean) {
    const fileId = parseId(attachmentId);
    if (!fileId || !this.files) throw notFound('Attachment not found');
    const [row] = await this.db
      .select({ file: ticketAttachments, kind: ticketMessages.kind })
      .from(ticketAttachments)
      .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
      .where(and(eq(ticketAttachments.id, fileId), eq(ticketAttachments.ticketId, ticketId)))
      .limit(1);
    if (!row || (requesterOnly && row.kind === 'internal')) throw notFound('Attachment not found');
    const bytes = await this.files.read(row.file.storageKey).catch(() => {
      throw notFound('Attachment not found');
    });
    return { filename: row.file.filename, contentType: row.file.contentType, size: bytes.length, bytes };
  }

  private async withStoredFile(file: { bytes: Buffer }, work: (tx: Tx, key: string) => Promise<TicketRow>): Promise<TicketRow> {
    if (!this.files) throw new AppError('ATTACHMENTS_UNAVAILABLE', 'Attachments are not available');
    const key = await this.files.save(file.bytes);
    try {
      return await this.db.transaction((tx) => work(tx, key));
    } catch (err) {
      await this.files.remove(key);
      throw err;
    }
  }

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
      const created = (await addMessage(tx, ticket!, 'requester', authorUserId, body.message, 'open')).ticket;
      await this.emitRuleEvents(tx, null, created, 'requester'); // automation rules (decision 0294)
      return created;
    });
    return withMessages(this.db, row, 'requester');
  }

  async listMine(
    requester: Requester,
    query: { status?: string | undefined; page: number; pageSize: number },
  ): Promise<TicketListResponse> {
    const where = and(ownedBy(requester), query.status ? eq(tickets.status, query.status) : undefined);
    const mine = await this.page(where, query.page, query.pageSize);
    return { ...mine, tickets: mine.tickets.map((t) => ({ ...t, tags: undefined })) }; // staff labels stay with staff (decision 0294)
  }

  async getMine(requester: Requester, id: string): Promise<Ticket> {
    return withMessages(this.db, await findOwned(this.db, requester, id), 'requester');
  }

  /** A requester's reply re-opens the ticket for staff, unless it was closed. */
  async replyAsRequester(requester: Requester, id: string, message: string): Promise<Ticket> {
    const row = await this.db.transaction(async (tx) => {
      const ticket = await findOwned(tx, requester, id);
      if (ticket.status === 'closed') {
        throw unprocessable('This ticket is closed. Open a new ticket to continue.', 'TICKET_CLOSED');
      }
      const added = await addMessage(tx, ticket, 'requester', requester.kind === 'user' ? requester.userId : null, message, 'open');
      await this.emitRuleEvents(tx, ticket, added.ticket, 'requester', added.messageId); // automation rules (decision 0294)
      return added.ticket;
    });
    return withMessages(this.db, row, 'requester');
  }

  async setStatusAsRequester(requester: Requester, id: string, status: 'open' | 'closed'): Promise<Ticket> {
    const ticket = await findOwned(this.db, requester, id);
    if (ticket.mergedInto && status === 'open') {
      throw unprocessable('This ticket was merged into another one: continue there.', 'TICKET_MERGED');
    }
    const row = await this.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(tickets)
        .set({ status, updatedAt: sql`now()` })
        .where(eq(tickets.id, ticket.id))
        .returning();
      await this.emitRuleEvents(tx, ticket, updated!, 'requester'); // automation rules (decision 0294)
      return updated!;
    });
    return withMessages(this.db, row, 'requester');
  }

  async listAll(
    query: {
      status?: string | undefined;
      priority?: string | undefined;
      search?: string | undefined;
      assigned: 'me' | 'unassigned' | 'any';
      userId?: string | undefined;
      sla?: SlaQueueFilter | undefined;
      page: number;
      pageSize: number;
    },
    staff: StaffMember,
  ): Promise<TicketListResponse> {
    const conditions: Array<SQL | undefined> = [
      query.status ? eq(tickets.status, query.status) : undefined,
      query.priority ? eq(tickets.priority, query.priority) : undefined,
      query.assigned === 'me' ? eq(tickets.assignedTo, staff.userId) : undefined,
      query.assigned === 'unassigned' ? isNull(tickets.assignedTo) : undefined,
      query.userId ? eq(tickets.userId, query.userId) : undefined,
      // SLA "breached" / "due soon" (support-sla module, docs/decisions/0293).
      query.sla && this.slaCondition ? await this.slaCondition(this.db, query.sla) : undefined,
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
    return withMessages(this.db, await findAny(this.db, id), 'staff');
  }

  /**
   * A staff answer waits on the requester (pending), and assigns an unassigned ticket to whoever
   * answered. An internal note changes nothing the requester sees: no status, no mail, no webhook.
   */
  async replyAsStaff(staff: StaffMember, id: string, message: string, internal = false): Promise<Ticket> {
    const row = await this.db.transaction(async (tx) => {
      const ticket = await findAny(tx, id);
      const after = internal ? await this.noteIn(tx, staff, ticket, message) : await this.answerIn(tx, staff, ticket, message);
      // The answer and its audit record commit together (every staff action is audited: decision 0234).
      await recordAudit(tx, {
        actor: await staffActor(tx, staff),
        action: internal ? 'ticket.note_added' : 'ticket.answered',
        targetType: 'ticket',
        targetId: ticket.id,
        before: auditView(ticket),
        // Metadata only: the audit log never copies what was written to or by a customer (docs/decisions/0234).
        after: { ...auditView(after), messageLength: message.length },
      });
      await this.emitRuleEvents(tx, ticket, after, 'staff'); // automation rules: a status change (decision 0294)
      return after;
    });
    return withMessages(this.db, row, 'staff');
  }

  private async noteIn(tx: Tx, staff: StaffMember, ticket: TicketRow, message: string): Promise<TicketRow> {
    return (await addMessage(tx, ticket, 'staff', staff.userId, message, ticket.status, 'internal')).ticket;
  }

  /** A visible staff answer (also used for an answer that carries a file). Returns the ticket after it. */
  async answerIn(tx: Tx, staff: StaffMember, ticket: TicketRow, message: string): Promise<TicketRow> {
    return (await this.answerWithIdIn(tx, staff, ticket, message)).ticket;
  }

  async answerWithIdIn(tx: Tx, staff: StaffMember, ticket: TicketRow, message: string): Promise<{ ticket: TicketRow; messageId: string }> {
    const next = ticket.status === 'closed' || ticket.status === 'resolved' ? ticket.status : 'pending';
    const added = await addMessage(tx, ticket, 'staff', staff.userId, message, next);
    const notice = ticketReplyNotice(ticket);
    if (notice) await this.notifications?.emit(tx, { ...notice, key: `ticket.reply:${added.messageId}` });
    if (ticket.userId) {
      await this.webhookEvents.enqueue(tx, ticket.userId, 'ticket.answered', {
        ticketId: ticket.id,
        number: ticket.number,
        subject: ticket.subject,
        status: next,
      });
      await notifyTicketReply(this.mail, tx, {
        userId: ticket.userId,
        ticketId: ticket.id,
        number: ticket.number,
        subject: ticket.subject,
        message,
      });
    }
    if (added.ticket.assignedTo) return added;
    const [assigned] = await tx.update(tickets).set({ assignedTo: staff.userId }).where(eq(tickets.id, ticket.id)).returning();
    return { ticket: assigned!, messageId: added.messageId };
  }

  async updateAsStaff(
    staff: StaffMember,
    id: string,
    change: {
      status?: string | undefined;
      priority?: string | undefined;
      assignToMe?: boolean | undefined;
      assigneeId?: string | null | undefined;
    },
  ): Promise<Ticket> {
    const row = await this.db.transaction(async (tx) => {
      const ticket = await findAny(tx, id);
      let assignedTo: string | null | undefined;
      if (change.assignToMe === true) assignedTo = staff.userId;
      if (change.assignToMe === false) assignedTo = null;
      if (change.assigneeId !== undefined) {
        if (change.assigneeId !== null && !(await isStaffMember(tx, change.assigneeId))) {
          throw unprocessable('Tickets can be assigned only to a support or admin account', 'NOT_STAFF', {
            fields: { assigneeId: 'Not a staff member' },
          });
        }
        assignedTo = change.assigneeId;
      }
      const [updated] = await tx
        .update(tickets)
        .set({
          ...(change.status ? { status: change.status } : {}),
          ...(change.priority ? { priority: change.priority } : {}),
          ...(assignedTo !== undefined ? { assignedTo } : {}),
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
      await this.emitRuleEvents(tx, ticket, updated!, 'staff'); // automation rules (decision 0294)
      return updated!;
    });
    return withMessages(this.db, row, 'staff');
  }

  /**
   * Merges the duplicate `sourceId` into `targetId`: the duplicate's messages (and their files) move to
   * the target and sort into its thread by time; the duplicate is closed with a visible notice
   * "merged into #A" and points at the target; the target gets a notice too. Only tickets of the same
   * requester merge (a merge must not show one person's messages to another). Audit-logged.
   */
  async merge(staff: StaffMember, targetId: string, sourceId: string): Promise<Ticket> {
    const row = await this.db.transaction(async (tx) => {
      const target = await findAny(tx, targetId);
      const source = await findAny(tx, sourceId);
      if (target.id === source.id) throw unprocessable('A ticket cannot be merged into itself', 'MERGE_SAME_TICKET');
      // Row locks in a fixed order, so two merges of the same pair cannot interleave.
      const locked = await tx
        .select()
        .from(tickets)
        .where(inArray(tickets.id, [target.id, source.id]))
        .orderBy(asc(tickets.id))
        .for('update');
      const lockedTarget = locked.find((r) => r.id === target.id);
      const lockedSource = locked.find((r) => r.id === source.id);
      if (lockedSource!.mergedInto) throw unprocessable(`Ticket #${source.number} is already merged`, 'TICKET_MERGED');
      if (lockedTarget!.mergedInto) throw unprocessable(`Ticket #${target.number} was merged into another ticket`, 'TICKET_MERGED');
      const sameOwner =
        (source.userId !== null && source.userId === target.userId) || (source.guestId !== null && source.guestId === target.guestId);
      if (!sameOwner) throw unprocessable('Only tickets of the same requester can be merged', 'MERGE_OTHER_OWNER');

      await tx.update(ticketMessages).set({ ticketId: target.id }).where(eq(ticketMessages.ticketId, source.id));
      await tx.update(ticketAttachments).set({ ticketId: target.id }).where(eq(ticketAttachments.ticketId, source.id));
      await tx
        .update(tickets)
        .set({
          messageCount: sql`(SELECT count(*)::int FROM ${ticketMessages} WHERE ${ticketMessages.ticketId} = ${target.id} AND ${ticketMessages.kind} <> 'internal')`,
          lastMessageAt: sql`greatest(${tickets.lastMessageAt}, ${lockedSource!.lastMessageAt.toISOString()}::timestamptz)`,
          firstResponseAt: sql`least(${tickets.firstResponseAt}, ${lockedSource!.firstResponseAt?.toISOString() ?? null}::timestamptz)`,
          createdAt: sql`least(${tickets.createdAt}, ${lockedSource!.createdAt.toISOString()}::timestamptz)`,
        })
        .where(eq(tickets.id, target.id));
      const [afterTarget] = await tx.select().from(tickets).where(eq(tickets.id, target.id));
      const merged = await addMessage(
        tx,
        afterTarget!,
        'staff',
        staff.userId,
        `Ticket #${source.number} was merged into this ticket.`,
        afterTarget!.status,
        'event',
      );
      const [emptied] = await tx
        .update(tickets)
        .set({ mergedInto: target.id, messageCount: 0, updatedAt: sql`now()` })
        .where(eq(tickets.id, source.id))
        .returning();
      const closed = await addMessage(tx, emptied!, 'staff', staff.userId, `Merged into #${target.number}.`, 'closed', 'event');
      await recordAudit(tx, {
        actor: await staffActor(tx, staff),
        action: 'ticket.merged',
        targetType: 'ticket',
        targetId: target.id,
        before: { target: auditView(lockedTarget!), source: { id: source.id, number: source.number, ...auditView(lockedSource!) } },
        after: { target: auditView(merged.ticket), source: { id: source.id, number: source.number, ...auditView(closed.ticket) } },
      });
      return merged.ticket;
    });
    return withMessages(this.db, row, 'staff');
  }

  /**
   * The requester rates the answer once, after the ticket is resolved or closed (decision 0190: a
   * rating is final, so the average cannot be nudged by edits; a second try is 409).
   */
  async rate(requester: Requester, id: string, body: RateTicketBody): Promise<Ticket> {
    const ticket = await findOwned(this.db, requester, id);
    if (ticket.mergedInto) throw unprocessable('This ticket was merged into another one: rate that one instead.', 'TICKET_MERGED');
    if (ticket.status !== 'closed' && ticket.status !== 'resolved') {
      throw unprocessable('A ticket can be rated once it is resolved or closed.', 'TICKET_NOT_CLOSED');
    }
    const [row] = await this.db
      .update(tickets)
      .set({ rating: body.score, ratingComment: body.comment ? body.comment : null, ratedAt: sql`now()` })
      .where(and(eq(tickets.id, ticket.id), isNull(tickets.ratedAt)))
      .returning();
    if (!row) throw new AppError('TICKET_ALREADY_RATED', 'This ticket has already been rated.');
    return withMessages(this.db, row, 'requester');
  }

  /** Average rating over every rated ticket, and per assigned staff member. */
  async ratingStats(): Promise<TicketRatingStats> {
    const [overall] = await this.db
      .select({ average: sql<string | null>`avg(${tickets.rating})`, count: count(tickets.rating) })
      .from(tickets)
      .where(isNotNull(tickets.rating));
    const perStaff = await this.db
      .select({ id: users.id, username: users.username, average: sql<string | null>`avg(${tickets.rating})`, count: count(tickets.rating) })
      .from(tickets)
      .innerJoin(users, eq(users.id, tickets.assignedTo))
      .where(isNotNull(tickets.rating))
      .groupBy(users.id, users.username)
      .orderBy(asc(users.username));
    const round = (v: string | null) => (v === null ? null : Math.round(Number(v) * 100) / 100);
    return {
      overall: { average: round(overall?.average ?? null), count: Number(overall?.count ?? 0) },
      byStaff: perStaff.map((r) => ({ _id: r.id, username: r.username, average: round(r.average), count: Number(r.count) })),
    };
  }

  async staffMembers(): Promise<Array<{ _id: string; username: string; role: 'support' | 'admin' }>> {
    const rows = await this.db
      .select({ id: users.id, username: users.username, role: users.role })
      .from(users)
      .where(and(inArray(users.role, ['support', 'admin']), isNull(users.disabledAt)))
      .orderBy(asc(users.username));
    return rows.map((r) => ({ _id: r.id, username: r.username, role: r.role as 'support' | 'admin' }));
  }

  async cannedReplies(): Promise<CannedReply[]> {
    const rows = await this.db.select().from(ticketCannedReplies).orderBy(asc(ticketCannedReplies.title), asc(ticketCannedReplies.id));
    return rows.map(toCannedDto);
  }

  async saveCannedReply(staff: StaffMember, id: string | null, body: CannedReplyBody): Promise<CannedReply> {
    return this.db.transaction(async (tx) => {
      let before: unknown = null;
      let row;
      if (id === null) {
        const [count_] = await tx.select({ n: count() }).from(ticketCannedReplies);
        if (Number(count_?.n ?? 0) >= CANNED_REPLIES_MAX)
          throw unprocessable(`At most ${CANNED_REPLIES_MAX} canned replies`, 'TOO_MANY_CANNED_REPLIES');
        [row] = await tx.insert(ticketCannedReplies).values({ title: body.title, body: body.body, createdBy: staff.userId }).returning();
      } else {
        const existing = await findCanned(tx, id);
        before = { title: existing.title, body: existing.body };
        [row] = await tx
          .update(ticketCannedReplies)
          .set({ title: body.title, body: body.body, updatedAt: sql`now()` })
          .where(eq(ticketCannedReplies.id, existing.id))
          .returning();
      }
      await recordAudit(tx, {
        actor: await staffActor(tx, staff),
        action: id === null ? 'canned_reply.created' : 'canned_reply.updated',
        targetType: 'canned_reply',
        targetId: row!.id,
        before,
        after: { title: row!.title, body: row!.body },
      });
      return toCannedDto(row!);
    });
  }

  async deleteCannedReply(staff: StaffMember, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const existing = await findCanned(tx, id);
      await tx.delete(ticketCannedReplies).where(eq(ticketCannedReplies.id, existing.id));
      await recordAudit(tx, {
        actor: await staffActor(tx, staff),
        action: 'canned_reply.deleted',
        targetType: 'canned_reply',
        targetId: existing.id,
        before: { title: existing.title, body: existing.body },
      });
    });
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

const CANNED_REPLIES_MAX = 100;

function toCannedDto(row: typeof ticketCannedReplies.$inferSelect): CannedReply {
  return { _id: row.id, title: row.title, body: row.body, updatedAt: row.updatedAt.toISOString() };
}

async function findCanned(db: DbOrTx, id: string) {
  const cannedId = parseId(id);
  const [row] = cannedId ? await db.select().from(ticketCannedReplies).where(eq(ticketCannedReplies.id, cannedId)).limit(1) : [];
  if (!row) throw notFound('Canned reply not found');
  return row;
}

async function isStaffMember(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.role === 'support' || row?.role === 'admin';
}

/** Guest tickets become the account's when that guest signs in or registers (docs/product.md#tickets). */
export async function moveGuestTicketsToUser(tx: Tx, guestId: string, userId: string): Promise<void> {
  await tx
    .update(tickets)
    .set({ userId, guestId: null, updatedAt: sql`now()` })
    .where(eq(tickets.guestId, guestId));
}
