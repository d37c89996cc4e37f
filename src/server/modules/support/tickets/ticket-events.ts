import { randomUUID } from 'node:crypto';
import type { Tx } from '#server/db/client.js';
import type { TicketRow } from './tickets.tables.js';

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

/** Rule events of a change made by `origin`: the message it added, and its status change if any. */
export async function emitRuleEvents(
  ruleEvents: TicketEventSink | undefined,
  tx: Tx,
  before: TicketRow | null,
  after: TicketRow,
  origin: TicketEvent['origin'],
  messageId?: string,
): Promise<void> {
  if (!ruleEvents) return;
  if (before === null) await ruleEvents(tx, { kind: 'ticket_created', ticketId: after.id, key: `created:${after.id}`, origin });
  else if (messageId && origin === 'requester')
    await ruleEvents(tx, { kind: 'requester_message', ticketId: after.id, key: `message:${messageId}`, origin });
  if (before && before.status !== after.status) {
    await ruleEvents(tx, {
      kind: 'status_changed',
      ticketId: after.id,
      key: `status:${after.id}:${randomUUID()}`,
      origin,
      status: after.status,
    });
  }
}
