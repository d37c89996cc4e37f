import type { SQL } from 'drizzle-orm';
import type { SlaQueueFilter, TicketSla } from '#shared/schemas/support-sla.js';
import type { DbOrTx } from '#server/db/client.js';
import type { TicketEventSink } from './tickets.service.js';

/**
 * What the support modules built on tickets add to the desk: rule events (support-rules, decision
 * 0294) and SLA state (support-sla, decision 0293). app.ts hands them in, so tickets imports neither
 * module that imports it (decision 0221).
 */
export interface DeskExtensions {
  ruleEvents?: TicketEventSink;
  withSla?: <T extends { _id: string }>(db: DbOrTx, items: T[]) => Promise<Array<T & { sla: TicketSla }>>;
  slaCondition?: (db: DbOrTx, filter: SlaQueueFilter) => Promise<SQL>;
}
