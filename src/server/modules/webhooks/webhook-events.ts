import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookEvent } from '#shared/schemas/webhooks.js';
import type { Tx } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import { users } from '#server/modules/users/users.tables.js';
import { webhookDeliveries, webhooks } from './webhooks.tables.js';

export const DELIVER_JOB = 'webhooks.deliver';

export interface DeliverJobData {
  deliveryId: string;
}

/**
 * Queues webhook deliveries: the webhooks module's subscription to the domain events
 * (webhook-subscriber.ts) calls it for each event a user's webhook may want. The job is written through
 * the caller's transaction, so it commits or rolls back with the change.
 */
export class WebhookEvents {
  constructor(
    private readonly jobs: JobQueue,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Queues `event` for `userId`'s webhook, inside the caller's transaction: the delivery row and its
   * job exist only if that transaction commits. A no-op (one indexed read) when the user has no enabled
   * webhook for this event. It never fails the caller: a webhook must not undo a payment, so its writes
   * run in a savepoint and a failure there is logged and dropped.
   */
  async enqueue(tx: Tx, userId: string, event: WebhookEvent, payload: Record<string, unknown>): Promise<string | null> {
    const [hook] = await tx
      .select({ enabled: webhooks.enabled, events: webhooks.events })
      .from(webhooks)
      // A closing account's webhook sends nothing (decision 0255); restoring the account brings it back.
      .innerJoin(users, eq(users.id, webhooks.userId))
      .where(and(eq(webhooks.userId, userId), isNull(users.closingAt)))
      .limit(1);
    if (!hook || !hook.enabled || !hook.events.includes(event)) return null;
    // A stopped queue would start itself on another connection: inside a transaction that deadlocks.
    if (!this.jobs.started) {
      process.emitWarning(`webhook event ${event} for user ${userId} dropped: the job queue is not running`);
      return null;
    }
    try {
      return await tx.transaction(async (savepoint) => {
        const [delivery] = await savepoint
          .insert(webhookDeliveries)
          .values({ userId, event, payload })
          .returning({ id: webhookDeliveries.id });
        await this.jobs.send(DELIVER_JOB, { deliveryId: delivery!.id } satisfies DeliverJobData, { tx: savepoint });
        return delivery!.id;
      });
    } catch (err) {
      this.log.error({ err, event, userId }, 'webhook event could not be queued');
      return null;
    }
  }

  /**
   * enqueue() for many events at once (group commit of IPNs, docs/decisions/0191): one read of the
   * users' webhooks, and for those that want their event one savepoint with one insert of deliveries
   * and one insert of jobs. Same guarantees: in the caller's transaction, never fails the caller.
   */
  async enqueueMany(tx: Tx, items: { userId: string; event: WebhookEvent; payload: Record<string, unknown> }[]): Promise<void> {
    if (items.length === 0) return;
    const userIds = [...new Set(items.map((i) => i.userId))];
    const hooks = await tx
      .select({ userId: webhooks.userId, enabled: webhooks.enabled, events: webhooks.events })
      .from(webhooks)
      .innerJoin(users, eq(users.id, webhooks.userId))
      .where(and(inArray(webhooks.userId, userIds), isNull(users.closingAt)));
    if (hooks.length === 0) return;
    const byUser = new Map(hooks.map((h) => [h.userId, h]));
    const wanted = items.filter((i) => {
      const hook = byUser.get(i.userId);
      return hook !== undefined && hook.enabled && hook.events.includes(i.event);
    });
    if (wanted.length === 0) return;
    if (!this.jobs.started) {
      for (const i of wanted) process.emitWarning(`webhook event ${i.event} for user ${i.userId} dropped: the job queue is not running`);
      return;
    }
    try {
      await tx.transaction(async (savepoint) => {
        const deliveries = await savepoint
          .insert(webhookDeliveries)
          .values(wanted.map((i) => ({ userId: i.userId, event: i.event, payload: i.payload })))
          .returning({ id: webhookDeliveries.id });
        await this.jobs.sendMany(
          DELIVER_JOB,
          deliveries.map((d) => ({ deliveryId: d.id }) satisfies DeliverJobData),
          { tx: savepoint },
        );
      });
    } catch (err) {
      this.log.error({ err, events: wanted.length }, 'webhook events could not be queued');
    }
  }
}
