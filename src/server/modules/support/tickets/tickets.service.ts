import { eq, sql, type SQL } from 'drizzle-orm';
import type {
  CannedReply,
  CannedReplyBody,
  CreateTicketBody,
  RateTicketBody,
  Ticket,
  TicketListResponse,
  TicketRatingStats,
} from '#shared/schemas/tickets.js';
import type { SlaQueueFilter } from '#shared/schemas/support-sla.js';
import type { Db, DbOrTx, Tx } from '#server/db/client.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import type { AttachmentStore, CheckedFile } from './attachments.js';
import { cannedReplies, deleteCannedReply, saveCannedReply } from './canned-replies.js';
import { createTicket, getMine, listMine, rateTicket, replyAsRequester, setStatusAsRequester } from './requester-tickets.js';
import { answerIn, answerWithIdIn, replyAsStaff } from './staff-answers.js';
import { mergeTickets, updateAsStaff } from './staff-changes.js';
import { getAny, listAll, ratingStats, staffMembers } from './staff-queue.js';
import type { TicketEventSink } from './ticket-events.js';
import { attachAsRequester, attachAsStaff, attachmentForRequester, attachmentForStaff } from './ticket-files.js';
import type { Requester, StaffMember, TicketDeps } from './ticket-rows.js';
import { tickets, type TicketRow } from './tickets.tables.js';

export type { TicketEvent, TicketEventSink } from './ticket-events.js';
export { addVisibleAnswer } from './staff-answers.js';
export { addMessage, DELETED_USER_NAME, type Requester, type StaffMember, type Viewer } from './ticket-rows.js';

/**
 * The support desk's one entry point. Each use case lives in its own file and is handed the deps it
 * needs: requester-tickets.ts (a requester's own tickets), staff-queue.ts (what staff read),
 * staff-answers.ts (answers and internal notes), staff-changes.ts (status, assignment, merge),
 * ticket-files.ts (attachments), canned-replies.ts; the shared rows and lookups are ticket-rows.ts.
 */
export class TicketService {
  private readonly deps: TicketDeps;

  constructor(
    db: Db,
    events: DomainEvents,
    files?: AttachmentStore,
    /** Queues events for the automation rules (the rules part, decision 0294). */
    ruleEvents?: TicketEventSink,
    /** The queue's SLA filter as a condition on tickets (the SLA part, decision 0293). */
    slaCondition?: (db: DbOrTx, filter: SlaQueueFilter) => Promise<SQL>,
  ) {
    this.deps = { db, events, files, ruleEvents, slaCondition };
  }

  attachAsRequester(requester: Requester, id: string, file: CheckedFile & { bytes: Buffer }, note: string | undefined): Promise<Ticket> {
    return attachAsRequester(this.deps, requester, id, file, note);
  }

  attachAsStaff(staff: StaffMember, id: string, file: CheckedFile & { bytes: Buffer }, note: string | undefined): Promise<Ticket> {
    return attachAsStaff(this.deps, staff, id, file, note);
  }

  attachmentForRequester(requester: Requester, ticketId: string, attachmentId: string) {
    return attachmentForRequester(this.deps, requester, ticketId, attachmentId);
  }

  attachmentForStaff(ticketId: string, attachmentId: string) {
    return attachmentForStaff(this.deps, ticketId, attachmentId);
  }

  create(requester: Requester, body: CreateTicketBody): Promise<Ticket> {
    return createTicket(this.deps, requester, body);
  }

  listMine(requester: Requester, query: { status?: string | undefined; page: number; pageSize: number }): Promise<TicketListResponse> {
    return listMine(this.deps.db, requester, query);
  }

  getMine(requester: Requester, id: string): Promise<Ticket> {
    return getMine(this.deps.db, requester, id);
  }

  replyAsRequester(requester: Requester, id: string, message: string): Promise<Ticket> {
    return replyAsRequester(this.deps, requester, id, message);
  }

  setStatusAsRequester(requester: Requester, id: string, status: 'open' | 'closed'): Promise<Ticket> {
    return setStatusAsRequester(this.deps, requester, id, status);
  }

  rate(requester: Requester, id: string, body: RateTicketBody): Promise<Ticket> {
    return rateTicket(this.deps.db, requester, id, body);
  }

  listAll(query: Parameters<typeof listAll>[1], staff: StaffMember): Promise<TicketListResponse> {
    return listAll(this.deps, query, staff);
  }

  getAny(id: string): Promise<Ticket> {
    return getAny(this.deps.db, id);
  }

  ratingStats(): Promise<TicketRatingStats> {
    return ratingStats(this.deps.db);
  }

  staffMembers(): Promise<Array<{ _id: string; username: string; role: 'support' | 'admin' }>> {
    return staffMembers(this.deps.db);
  }

  replyAsStaff(staff: StaffMember, id: string, message: string, internal = false): Promise<Ticket> {
    return replyAsStaff(this.deps, staff, id, message, internal);
  }

  /** A visible staff answer (also used for an answer that carries a file). Returns the ticket after it. */
  answerIn(tx: Tx, staff: StaffMember, ticket: TicketRow, message: string): Promise<TicketRow> {
    return answerIn(this.deps, tx, staff, ticket, message);
  }

  answerWithIdIn(tx: Tx, staff: StaffMember, ticket: TicketRow, message: string): Promise<{ ticket: TicketRow; messageId: string }> {
    return answerWithIdIn(this.deps, tx, staff, ticket, message);
  }

  updateAsStaff(staff: StaffMember, id: string, change: Parameters<typeof updateAsStaff>[3]): Promise<Ticket> {
    return updateAsStaff(this.deps, staff, id, change);
  }

  merge(staff: StaffMember, targetId: string, sourceId: string): Promise<Ticket> {
    return mergeTickets(this.deps.db, staff, targetId, sourceId);
  }

  cannedReplies(): Promise<CannedReply[]> {
    return cannedReplies(this.deps.db);
  }

  saveCannedReply(staff: StaffMember, id: string | null, body: CannedReplyBody): Promise<CannedReply> {
    return saveCannedReply(this.deps.db, staff, id, body);
  }

  deleteCannedReply(staff: StaffMember, id: string): Promise<void> {
    return deleteCannedReply(this.deps.db, staff, id);
  }
}

/** Guest tickets become the account's when that guest signs in or registers (docs/product.md#tickets). */
export async function moveGuestTicketsToUser(tx: Tx, guestId: string, userId: string): Promise<void> {
  await tx
    .update(tickets)
    .set({ userId, guestId: null, updatedAt: sql`now()` })
    .where(eq(tickets.guestId, guestId));
}
