import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { webhookDeliveries, webhooks } from '#server/modules/webhooks/webhooks.tables.js';
import { iso, json, type ExportEntry } from './export-format.js';

export async function* webhookFiles(db: DbOrTx, userId: string): AsyncGenerator<ExportEntry> {
  // webhooks.json: the settings without the secret (nor its hint), and the delivery log without payloads.
  const [hook] = await db.select().from(webhooks).where(eq(webhooks.userId, userId)).limit(1);
  const deliveries = await db
    .select({
      id: webhookDeliveries.id,
      event: webhookDeliveries.event,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      createdAt: webhookDeliveries.createdAt,
      deliveredAt: webhookDeliveries.deliveredAt,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.userId, userId))
    .orderBy(asc(webhookDeliveries.createdAt));
  yield {
    name: 'webhooks.json',
    data: json({
      webhook: hook
        ? {
            url: hook.url,
            events: hook.events,
            enabled: hook.enabled,
            secretRotatedAt: iso(hook.secretRotatedAt),
            failingSince: iso(hook.failingSince),
            disabledAt: iso(hook.disabledAt),
            createdAt: iso(hook.createdAt),
            updatedAt: iso(hook.updatedAt),
          }
        : null,
      deliveries: deliveries.map((d) => ({ ...d, createdAt: iso(d.createdAt), deliveredAt: iso(d.deliveredAt) })),
    }),
  };
}
