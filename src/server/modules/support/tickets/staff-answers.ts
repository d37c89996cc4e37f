import { eq } from 'drizzle-orm';
import type { Ticket } from '#shared/schemas/tickets.js';
import type { Tx } from '#server/db/client.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { emitRuleEvents } from './ticket-events.js';
import { addMessage, auditView, findAny, staffActor, withMessages, type StaffMember, type TicketDeps } from './ticket-rows.js';
import { tickets, type TicketRow } from './tickets.tables.js';

/** Staff write on a ticket: a visible answer (notice, webhook, mail) or an internal note. */

/**
 * A staff answer waits on the requester (pending), and assigns an unassigned ticket to whoever
 * answered. An internal note changes nothing the requester sees: no status, no mail, no webhook.
 */
export async function replyAsStaff(deps: TicketDeps, staff: StaffMember, id: string, message: string, internal = false): Promise<Ticket> {
  const row = await deps.db.transaction(async (tx) => {
    const ticket = await findAny(tx, id);
    const after = internal ? await noteIn(tx, staff, ticket, message) : await answerIn(deps, tx, staff, ticket, message);
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
    await emitRuleEvents(deps.ruleEvents, tx, ticket, after, 'staff'); // automation rules: a status change (decision 0294)
    return after;
  });
  return withMessages(deps.db, row, 'staff');
}

async function noteIn(tx: Tx, staff: StaffMember, ticket: TicketRow, message: string): Promise<TicketRow> {
  return (await addMessage(tx, ticket, 'staff', staff.userId, message, ticket.status, 'internal')).ticket;
}

/** What a visible answer tells the requester through: the in-app notice, the webhook and the mail. */
type AnswerDeps = Pick<TicketDeps, 'events'>;

/**
 * A visible answer from the desk, added and told to the requester (in-app notice, webhook, mail) in the
 * caller's transaction: a staff member's (`authorId`) or the automation's (null). The ticket waits for
 * the requester unless it is closed or resolved. Does not take the ticket.
 */
export async function addVisibleAnswer(
  deps: AnswerDeps,
  tx: Tx,
  ticket: TicketRow,
  authorId: string | null,
  message: string,
): Promise<{ ticket: TicketRow; messageId: string }> {
  const next = ticket.status === 'closed' || ticket.status === 'resolved' ? ticket.status : 'pending';
  const added = await addMessage(tx, ticket, 'staff', authorId, message, next);
  await deps.events.emit(tx, {
    type: 'ticket.answered',
    ticket: { id: ticket.id, number: ticket.number, subject: ticket.subject, userId: ticket.userId, guestId: ticket.guestId },
    messageId: added.messageId,
    message,
    status: next,
  });
  return added;
}

/** A visible staff answer (also used for an answer that carries a file). Returns the ticket after it. */
export async function answerIn(deps: AnswerDeps, tx: Tx, staff: StaffMember, ticket: TicketRow, message: string): Promise<TicketRow> {
  return (await answerWithIdIn(deps, tx, staff, ticket, message)).ticket;
}

export async function answerWithIdIn(
  deps: AnswerDeps,
  tx: Tx,
  staff: StaffMember,
  ticket: TicketRow,
  message: string,
): Promise<{ ticket: TicketRow; messageId: string }> {
  const added = await addVisibleAnswer(deps, tx, ticket, staff.userId, message);
  if (added.ticket.assignedTo) return added;
  const [assigned] = await tx.update(tickets).set({ assignedTo: staff.userId }).where(eq(tickets.id, ticket.id)).returning();
  return { ticket: assigned!, messageId: added.messageId };
}
