import type { SQL } from 'drizzle-orm';
import type { SlaQueueFilter, TicketSla } from '#shared/schemas/support-sla.js';
import type { DbOrTx } from '#server/db/client.js';
import type { TicketEventSink } from './tickets.service.js';

/**
 * What the parts of the support desk built on tickets add to it: rule events (rules/, decision 0294)
 * and SLA state (sla/, decision 0293). support.module.ts hands them in, so tickets/ imports neither
 * part that imports it (decisions 0221, 0323).
 */
export interface DeskExtensions {
  ruleEvents?: TicketEventSink;
  withSla?: <T extends { _id: string }>(db: DbOrTx, items: T[]) => Promise<Array<T & { sla: TicketSla }>>;
  slaCondition?: (db: DbOrTx, filter: SlaQueueFilter) => Promise<SQL>;
}
