import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Rule } from '#shared/schemas/support-rules.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import { notFound } from '#server/errors.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import type { TicketEvent, TicketEventSink } from '../tickets/tickets.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { supportRules, type SupportRuleRow } from './support-rules.tables.js';

/** The event a rule run answers: a ticket event, or the no-reply sweep's (which names its rule). */
export interface RuleEvent {
  kind: TicketEvent['kind'] | 'no_staff_reply';
  ticketId: string;
  key: string;
  origin: TicketEvent['origin'];
  status?: string | undefined;
  /** no_staff_reply: the rule that is due (each rule has its own number of hours). */
  ruleId?: string | undefined;
}

export interface SupportRulesDeps {
  db: Db;
  /** Where the automation's visible answers are reported, as a person's are. */
  events: DomainEvents;
  /** The "ticket closed" notice of auto-close (optional). */
  notifications?: NotificationsService | undefined;
  /** Rule events of changes made outside the ticket service (auto-close). */
  ruleEvents?: TicketEventSink | undefined;
  log?: FastifyBaseLogger | undefined;
}

/** What the audit log and the run log call the automation. */
export const AUTOMATION = 'automation';

export function parseId(id: string): string | null {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id.toLowerCase() : null;
}

export function toDto(row: SupportRuleRow): Rule {
  return {
    _id: row.id,
    name: row.name,
    enabled: row.enabled,
    trigger: row.trigger,
    conditions: row.conditions,
    actions: row.actions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findRule(db: DbOrTx, id: string): Promise<SupportRuleRow> {
  const ruleId = parseId(id);
  const [row] = ruleId ? await db.select().from(supportRules).where(eq(supportRules.id, ruleId)).for('update') : [];
  if (!row) throw notFound('Rule not found');
  return row;
}

export function ruleAudit(row: SupportRuleRow) {
  // Metadata only: a note's words stay out of the audit log (docs/decisions/0234).
  return {
    name: row.name,
    enabled: row.enabled,
    trigger: row.trigger,
    conditions: row.conditions,
    actions: row.actions.map((a) => (a.type === 'internal_note' ? { type: a.type, length: a.body.length } : a)),
  };
}

export async function actorOf(db: DbOrTx, userId: string): Promise<{ id: string; username: string }> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  return { id: userId, username: row?.username ?? 'unknown' };
}
