import { eq, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { tickets } from '../tickets/tickets.tables.js';
import { actorOf, parseId } from './support-rules-rows.js';

/** A staff member sets a ticket's tags; the change and its audit entry commit together. */
export async function setTags(db: Db, staffId: string, ticketId: string, tags: string[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    const id = parseId(ticketId);
    const [ticket] = id ? await tx.select().from(tickets).where(eq(tickets.id, id)).for('update') : [];
    if (!ticket) throw notFound('Ticket not found');
    const [updated] = await tx
      .update(tickets)
      .set({ tags, updatedAt: sql`now()` })
      .where(eq(tickets.id, ticket.id))
      .returning({ tags: tickets.tags });
    await recordAudit(tx, {
      actor: await actorOf(tx, staffId),
      action: 'ticket.tags_changed',
      targetType: 'ticket',
      targetId: ticket.id,
      before: { tags: ticket.tags },
      after: { tags: updated!.tags },
    });
    return updated!.tags;
  });
}
