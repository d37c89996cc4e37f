import { eq } from 'drizzle-orm';
import type { WebhookDelivery } from '#shared/schemas/webhooks.js';
import type { Db } from '#server/db/client.js';
import { AppError, notFound } from '#server/errors.js';
import { webhooks, type WebhookAttemptRow, type WebhookDeliveryRow, type WebhookRow } from './webhooks.tables.js';

/** The user's webhook, or null; settings and delivery attempts both read it. */
export async function findWebhook(db: Db, userId: string): Promise<WebhookRow | null> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.userId, userId)).limit(1);
  return row ?? null;
}

export const notConfigured = () => new AppError('WEBHOOK_NOT_CONFIGURED', 'Save a webhook URL first');
export const deliveryNotFound = () => notFound('Delivery not found');

export const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

export function toDeliveryDto(row: WebhookDeliveryRow, attempts: WebhookAttemptRow[] = []): WebhookDelivery {
  return {
    _id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    statusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    deliveredAt: iso(row.deliveredAt),
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      trigger: a.trigger,
      statusCode: a.statusCode,
      error: a.error,
      responseExcerpt: a.responseExcerpt,
      durationMs: a.durationMs,
      attemptedAt: a.attemptedAt.toISOString(),
    })),
  };
}
