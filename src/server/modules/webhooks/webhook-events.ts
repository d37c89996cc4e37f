import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { WebhookEvent } from '../../../shared/schemas/webhooks.js';
import type { Database, Tx } from '../../db/client.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { webhookDeliveries, webhooks } from './webhooks.tables.js';

export const DELIVER_JOB = 'webhooks.deliver';

export interface DeliverJobData {
  deliveryId: string;
}

/**
 * Modules that report events (ledger, payments, tickets, exchange) call `enqueueWebhookEvent(tx, …)`
 * deep inside their own transactions, where no app context is at hand. Each running app registers its
 * job queue here under the database it serves; the transaction's own connection says which one that
 * is. The job is written through that connection either way, so it commits or rolls back with the change.
 */
interface Registered {
  jobs: JobQueue;
  log: FastifyBaseLogger;
}
const queues = new Map<string, Registered[]>();

function keyOf(params: { host?: string | undefined; port?: number | undefined; database?: string | undefined }): string {
  return `${params.host ?? ''}:${params.port ?? ''}/${params.database ?? ''}`;
}

/** The same host/port/database a pg client derives from this connection string. */
function databaseKey(database: Database): string {
  const probe = new pg.Client({ connectionString: database.connectionString });
  return keyOf(probe);
}

export function registerWebhookQueue(database: Database, jobs: JobQueue, log: FastifyBaseLogger): () => void {
  const key = databaseKey(database);
  const entry = { jobs, log };
  queues.set(key, [...(queues.get(key) ?? []), entry]);
  return () => {
    const left = (queues.get(key) ?? []).filter((e) => e !== entry);
    if (left.length) queues.set(key, left);
    else queues.delete(key);
  };
}

function queueFor(tx: Tx): Registered | null {
  const client = (tx as unknown as { session?: { client?: { host?: string; port?: number; database?: string } } }).session?.client;
  if (!client) return null;
  // A stopped queue would start itself on another connection: inside a transaction that deadlocks.
  return (queues.get(keyOf(client)) ?? []).find((e) => e.jobs.started) ?? null;
}

/**
 * Queues `event` for `userId`'s webhook, inside the caller's transaction: the delivery row and its
 * job exist only if that transaction commits. A no-op (one indexed read) when the user has no enabled
 * webhook for this event. It never fails the caller: a webhook must not undo a payment, so its writes
 * run in a savepoint and a failure there is logged and dropped.
 */
export async function enqueueWebhookEvent(tx: Tx, userId: string, event: WebhookEvent, payload: Record<string, unknown>): Promise<string | null> {
  const [hook] = await tx
    .select({ enabled: webhooks.enabled, events: webhooks.events })
    .from(webhooks)
    .where(eq(webhooks.userId, userId))
    .limit(1);
  if (!hook || !hook.enabled || !hook.events.includes(event)) return null;
  const queue = queueFor(tx);
  if (!queue) {
    process.emitWarning(`webhook event ${event} for user ${userId} dropped: no running job queue for this database`);
    return null;
  }
  try {
    return await tx.transaction(async (savepoint) => {
      const [delivery] = await savepoint.insert(webhookDeliveries).values({ userId, event, payload }).returning({ id: webhookDeliveries.id });
      await queue.jobs.send(DELIVER_JOB, { deliveryId: delivery!.id } satisfies DeliverJobData, { tx: savepoint });
      return delivery!.id;
    });
  } catch (err) {
    queue.log.error({ err, event, userId }, 'webhook event could not be queued');
    return null;
  }
}
