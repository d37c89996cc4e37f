import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '#server/db/client.js';
import { translatorFor } from '#server/i18n/translator.js';
import { findUserLocale } from '#server/modules/users/users.service.js';
import { auditLog } from '#server/modules/audit/audit.tables.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { ticketLink } from '#server/modules/notifications/notices.js';
import { addMessage } from '../tickets/tickets.service.js';
import { ticketMessages, tickets } from '../tickets/tickets.tables.js';
import { actorOf, AUTOMATION, type SupportRulesDeps } from './support-rules-rows.js';
import { supportAutoCloses } from './support-rules.tables.js';

/** Auto-close of resolved tickets: the setting (days, 0 = never) and the sweep that closes them. */

export async function autoCloseDays(db: DbOrTx): Promise<number> {
  const result = await db.execute<{ days: number }>(sql`SELECT auto_close_days AS days FROM support_calendar WHERE id = 1`);
  const row = result.rows[0];
  return row ? Number(row.days) : 7;
}

export async function setAutoCloseDays(db: Db, staffId: string, days: number): Promise<number> {
  return db.transaction(async (tx) => {
    const before = await autoCloseDays(tx);
    await tx.execute(
      sql`INSERT INTO support_calendar (id, auto_close_days) VALUES (1, ${days}) ON CONFLICT (id) DO UPDATE SET auto_close_days = ${days}, updated_at = now()`,
    );
    await recordAudit(tx, {
      actor: await actorOf(tx, staffId),
      action: 'support.auto_close_changed',
      targetType: 'support_settings',
      targetId: null,
      before: { autoCloseDays: before },
      after: { autoCloseDays: days },
    });
    return days;
  });
}

/**
 * Closes tickets resolved at least N days ago whose requester has not written since (a requester
 * message re-opens a resolved ticket anyway), each once: the ticket is locked and must still be
 * resolved, and its support_auto_closes row is the at-most-once key. The requester then gets the
 * rating request: a notice (in-app, and mail for accounts that keep it on); a guest sees the rating
 * form on the ticket.
 */
export async function autoClose(deps: SupportRulesDeps, now: Date = new Date()): Promise<number> {
  const days = await autoCloseDays(deps.db);
  if (days === 0) return 0;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const due = await deps.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.status, 'resolved'),
        isNull(tickets.mergedInto),
        sql`${tickets.closedAt} <= ${cutoff.toISOString()}::timestamptz`,
        sql`NOT EXISTS (SELECT 1 FROM ${supportAutoCloses} a WHERE a.ticket_id = ${tickets.id})`,
        sql`NOT EXISTS (SELECT 1 FROM ${ticketMessages} m WHERE m.ticket_id = ${tickets.id} AND m.author = 'requester' AND m.created_at > ${tickets.closedAt})`,
      ),
    )
    .orderBy(asc(tickets.closedAt))
    .limit(200);
  let closed = 0;
  for (const { id } of due) {
    const done = await deps.db.transaction(async (tx) => {
      const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, id)).for('update');
      if (!ticket || ticket.status !== 'resolved' || !ticket.closedAt || ticket.closedAt > cutoff) return false;
      const [first] = await tx.insert(supportAutoCloses).values({ ticketId: id }).onConflictDoNothing().returning();
      if (!first) return false;
      const { ticket: after } = await addMessage(
        tx,
        ticket,
        'staff',
        null,
        `Closed automatically: resolved ${days} day${days === 1 ? '' : 's'} ago without a reply.`,
        'closed',
        'event',
      );
      await tx.insert(auditLog).values({
        actorId: null,
        actorName: AUTOMATION,
        action: 'ticket.auto_closed',
        targetType: 'ticket',
        targetId: id,
        before: { status: ticket.status },
        after: { status: after.status, autoCloseDays: days },
      });
      const to = ticket.userId ? { userId: ticket.userId } : ticket.guestId ? { guestId: ticket.guestId } : null;
      if (to && ticket.ratedAt === null) {
        // In the requester's language (docs/decisions/0328); a guest reads English.
        const tr = translatorFor(ticket.userId ? await findUserLocale(tx, ticket.userId) : null);
        await deps.notifications?.emit(tx, {
          to,
          event: 'ticket.rating_request',
          key: `ticket.rating_request:${id}`,
          title: tr.t(/*i18n*/ 'How did we do on ticket #{number}?', { number: String(ticket.number) }),
          body: tr.t(/*i18n*/ 'Your ticket "{subject}" is closed. Rate our answer: it takes a few seconds.', { subject: ticket.subject }),
          link: ticketLink(id),
        });
      }
      await deps.ruleEvents?.(tx, { kind: 'status_changed', ticketId: id, key: `auto_close:${id}`, origin: 'system', status: 'closed' });
      return true;
    });
    if (done) closed++;
  }
  return closed;
}
