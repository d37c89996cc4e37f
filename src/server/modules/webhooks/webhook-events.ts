import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookEvent } from '#shared/schemas/webhooks.js';
import type { Tx } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import { users } from '#server/modules/users/users.tables.js';
import { webhookDeliveries, webhooks } from './webhooks.tables.js';

export const DELIVER_JOB = 'webhooks.deliver';

export type EventObserver = (tx: Tx, userId: string, event: WebhookEvent, payload: Record<string, unknown>) => Promise<void>;

export interface DeliverJobData {
  deliveryId: string;
}

/**
 * How modules that report events (ledger, payments, tickets, exchange) queue them: the app builds one
 * per app on its own job queue and hands it out through the app context (`ctx.webhookEvents`), and
 * services take it as a dependency. The job is written through the caller's transaction, so it
 * commits or rolls back with the change.
 */
export class WebhookEvents {
  private readonly observers: EventObserver[] = [];

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
  /**
   * Another module hears every event as it is reported, in the same transaction, whether or not the
   * user has a webhook (notifications: a balance below the account's threshold). An observer must not
   * fail the caller (it catches its own errors).
   */
  observe(observer: EventObserver): void {
    this.observers.push(observer);
  }

  async enqueue(tx: Tx, userId: string, event: WebhookEvent, payload: Record<string, unknown>): Promise<string | null> {
    for (const observer of this.observers) await observer(tx, userId, event, payload);
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
    for (const observer of this.observers) for (const i of items) await observer(tx, i.userId, i.event, i.payload);
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
