import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import { WEBHOOK_TEST_EVENT, type WebhookDelivery } from '#shared/schemas/webhooks.js';
import { DELIVER_JOB, type DeliverJobData } from './webhook-events.js';
import type { WebhookServiceDeps } from './webhook-deps.js';
import { deliveryNotFound, notConfigured, toDeliveryDto } from './webhook-rows.js';
import { webhookDeliveries, webhookDeliveryAttempts, webhooks, type WebhookAttemptRow } from './webhooks.tables.js';

/** The user's delivery log: the test delivery, the list of deliveries with their attempts, and one delivery. */
export class WebhookDeliveryLog {
  constructor(
    private readonly deps: WebhookServiceDeps,
    private readonly now: () => Date,
  ) {}

  /** Queues a `webhook.test` delivery to the saved URL (also when the webhook is turned off). */
  async sendTest(userId: string): Promise<WebhookDelivery> {
    return this.deps.db.transaction(async (tx) => {
      const [hook] = await tx.select({ userId: webhooks.userId }).from(webhooks).where(eq(webhooks.userId, userId)).limit(1);
      if (!hook) throw notConfigured();
      const [delivery] = await tx
        .insert(webhookDeliveries)
        .values({
          userId,
          event: WEBHOOK_TEST_EVENT,
          payload: { message: 'This is a test delivery from Olympus.' },
          nextAttemptAt: this.now(),
        })
        .returning();
      await this.deps.jobs.send(DELIVER_JOB, { deliveryId: delivery!.id } satisfies DeliverJobData, { tx });
      return toDeliveryDto(delivery!);
    });
  }

  private async attemptsOf(deliveryIds: string[]): Promise<Map<string, WebhookAttemptRow[]>> {
    const byDelivery = new Map<string, WebhookAttemptRow[]>();
    if (deliveryIds.length === 0) return byDelivery;
    const rows = await this.deps.db
      .select()
      .from(webhookDeliveryAttempts)
      .where(inArray(webhookDeliveryAttempts.deliveryId, deliveryIds))
      .orderBy(asc(webhookDeliveryAttempts.attempt));
    for (const row of rows) {
      const list = byDelivery.get(row.deliveryId) ?? [];
      list.push(row);
      byDelivery.set(row.deliveryId, list);
    }
    return byDelivery;
  }

  async listDeliveries(userId: string, page: { page: number; pageSize: number }) {
    const where = eq(webhookDeliveries.userId, userId);
    const rows = await this.deps.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize);
    const [total] = await this.deps.db.select({ n: count() }).from(webhookDeliveries).where(where);
    const attempts = await this.attemptsOf(rows.map((r) => r.id));
    return {
      deliveries: rows.map((r) => toDeliveryDto(r, attempts.get(r.id))),
      page: page.page,
      pageSize: page.pageSize,
      total: total?.n ?? 0,
    };
  }

  async deliveryDto(id: string): Promise<WebhookDelivery> {
    const [row] = await this.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
    if (!row) throw deliveryNotFound();
    return toDeliveryDto(row, (await this.attemptsOf([id])).get(id));
  }
}
