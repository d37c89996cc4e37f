import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Ticket } from '#shared/schemas/tickets.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { unprocessable } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { emitRuleEvents } from './ticket-events.js';
import { addMessage, auditView, findAny, staffActor, withMessages, type StaffMember, type TicketDeps } from './ticket-rows.js';
import { ticketAttachments, ticketMessages, tickets } from './tickets.tables.js';

/** Staff change a ticket: status, priority and assignment, or merge a duplicate into it. Each change is audited. */

async function isStaffMember(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.role === 'support' || row?.role === 'admin';
}

export async function updateAsStaff(
  deps: Pick<TicketDeps, 'db' | 'ruleEvents'>,
  staff: StaffMember,
  id: string,
  change: {
    status?: string | undefined;
    priority?: string | undefined;
    assignToMe?: boolean | undefined;
    assigneeId?: string | null | undefined;
  },
): Promise<Ticket> {
  const row = await deps.db.transaction(async (tx) => {
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
    await emitRuleEvents(deps.ruleEvents, tx, ticket, updated!, 'staff'); // automation rules (decision 0294)
    return updated!;
  });
  return withMessages(deps.db, row, 'staff');
}

/**
 * Merges the duplicate `sourceId` into `targetId`: the duplicate's messages (and their files) move to
 * the target and sort into its thread by time; the duplicate is closed with a visible notice
 * "merged into #A" and points at the target; the target gets a notice too. Only tickets of the same
 * requester merge (a merge must not show one person's messages to another). Audit-logged.
 */
export async function mergeTickets(db: Db, staff: StaffMember, targetId: string, sourceId: string): Promise<Ticket> {
  const row = await db.transaction(async (tx) => {
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
    if (lockedSource!.mergedInto)
      throw unprocessable(`Ticket #${source.number} is already merged`, 'TICKET_MERGED', { ticketNumber: source.number });
    if (lockedTarget!.mergedInto)
      throw unprocessable(`Ticket #${target.number} was merged into another ticket`, 'TICKET_MERGED', { ticketNumber: target.number });
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
  return withMessages(db, row, 'staff');
}
