import { staffPaths } from '#shared/routes.js';
import { and, inArray, isNull } from 'drizzle-orm';
import type { SlaKind } from '#shared/schemas/support-sla.js';
import type { Database } from '#server/db/client.js';
import { english, translatorFor, type Translator } from '#server/i18n/translator.js';
import type { EmitInput, NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { tickets } from '../tickets/tickets.tables.js';
import { findUserLocale } from '#server/modules/users/users.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { SLA_SCAN_MAX, loadSlaContext, owesSomething, ticketSla } from './sla-state.js';
import { supportSlaBreaches } from './support-sla.tables.js';

export const SLA_BREACH_JOB = 'support.sla-breaches';

/** One ticket in the staff console, at its own address (docs/decisions/0313). */
export const staffTicketLink = (ticketId: string) => staffPaths.ticket(ticketId);

/** Written in the recipient's own language (their users.locale, docs/decisions/0328). */
export function breachNotice(
  t: { id: string; number: number; subject: string },
  kind: SlaKind,
  userId: string,
  tr: Translator = english,
): EmitInput {
  const number = String(t.number);
  return {
    to: { userId },
    event: 'ticket.sla_breached',
    // Per ticket, kind and person: each recipient is told once.
    key: `ticket.sla_breached:${t.id}:${kind}:${userId}`,
    title: tr.t(/*i18n*/ 'SLA breached on ticket #{number}', { number }),
    body:
      kind === 'first_response'
        ? tr.t(/*i18n*/ 'The first response target of "{subject}" passed without it.', { subject: t.subject })
        : tr.t(/*i18n*/ 'The resolution target of "{subject}" passed without it.', { subject: t.subject }),
    link: staffTicketLink(t.id),
  };
}

/**
 * The breach run (every minute, docs/decisions/0293): each open ticket whose first-response or
 * resolution target fell due unmet gets one support_sla_breaches row per kind; only the transaction
 * whose insert made the row notifies (the assignee, or every support and admin account when nobody is
 * assigned), so two instances running at once tell each person once. Returns the breaches recorded.
 */
export async function recordSlaBreaches(database: Database, notifications: NotificationsService, now = new Date()): Promise<number> {
  const db = database.db;
  const ctx = await loadSlaContext(db);
  const open = await db
    .select({
      id: tickets.id,
      number: tickets.number,
      subject: tickets.subject,
      priority: tickets.priority,
      assignedTo: tickets.assignedTo,
      createdAt: tickets.createdAt,
      firstResponseAt: tickets.firstResponseAt,
      closedAt: tickets.closedAt,
    })
    .from(tickets)
    .where(and(owesSomething, isNull(tickets.mergedInto)))
    .orderBy(tickets.createdAt)
    .limit(SLA_SCAN_MAX);
  if (open.length === 0) return 0;
  const known = await db
    .select({ ticketId: supportSlaBreaches.ticketId, kind: supportSlaBreaches.kind })
    .from(supportSlaBreaches)
    .where(
      inArray(
        supportSlaBreaches.ticketId,
        open.map((t) => t.id),
      ),
    );
  const seen = new Set(known.map((k) => `${k.ticketId}:${k.kind}`));
  let recorded = 0;
  let desk: string[] | null = null;
  for (const t of open) {
    const sla = ticketSla(ctx, t, now);
    const due: Array<[SlaKind, string]> = [];
    if (sla.firstResponse?.state === 'breached' && t.firstResponseAt === null && sla.firstResponse.dueAt)
      due.push(['first_response', sla.firstResponse.dueAt]);
    if (sla.resolution?.state === 'breached' && sla.resolution.dueAt) due.push(['resolution', sla.resolution.dueAt]);
    for (const [kind, dueAt] of due) {
      if (seen.has(`${t.id}:${kind}`)) continue;
      const recipients = t.assignedTo ? [t.assignedTo] : (desk ??= await deskStaff(database));
      await db.transaction(async (tx) => {
        const [won] = await tx
          .insert(supportSlaBreaches)
          .values({ ticketId: t.id, kind, dueAt: new Date(dueAt) })
          .onConflictDoNothing()
          .returning({ kind: supportSlaBreaches.kind });
        if (!won) return;
        recorded += 1;
        for (const userId of recipients) {
          await notifications.emit(tx, breachNotice(t, kind, userId, translatorFor(await findUserLocale(tx, userId))));
        }
      });
    }
  }
  return recorded;
}

/** Every support and admin account that can still sign in. */
async function deskStaff(database: Database): Promise<string[]> {
  const rows = await database.db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.role, ['support', 'admin']), isNull(users.disabledAt), isNull(users.erasedAt)));
  return rows.map((r) => r.id);
}
