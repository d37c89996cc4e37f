import { count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  WEBHOOK_HEADERS,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookSettings,
  type WebhookSettingsBody,
} from '#shared/schemas/webhooks.js';
import type { Db } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import { AppError, notFound } from '#server/errors.js';
import { users } from '#server/modules/users/users.tables.js';
import { TargetRefusedError, vetTarget } from './address-policy.js';
import { sendWebhook, type SendResult } from './sender.js';
import { SecretBox } from '#server/secret-box.js';
import { generateSecret, secretHint, signPayload } from './signing.js';
import { DELIVER_JOB, type DeliverJobData } from './webhook-events.js';
import { webhookDeliveries, webhookDeliveryAttempts, webhooks, type WebhookDeliveryRow, type WebhookRow } from './webhooks.tables.js';

/** Attempts per delivery: with pg-boss's exponential backoff (5 s doubling, jittered) the last is 10-20 minutes in. */
export const MAX_ATTEMPTS = 8;
/** Resolving the host while saving must not hold the request for long. */
const SAVE_RESOLVE_TIMEOUT_MS = 3000;

export interface WebhookServiceDeps {
  db: Db;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  serverSecret: Uint8Array;
  allowPrivateTargets: boolean;
}

const notConfigured = () => new AppError(404, 'WEBHOOK_NOT_CONFIGURED', 'Save a webhook URL first');

function urlFieldError(message: string): AppError {
  return new AppError(400, 'VALIDATION_ERROR', `Invalid request: ${message}`, { details: { fields: { url: message }, location: 'body' } });
}

export function toDeliveryDto(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    _id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    statusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

function toSettingsDto(row: WebhookRow | null, secret?: string): WebhookSettings {
  if (!row) return { configured: false, url: null, events: [], enabled: false, secretHint: null, updatedAt: null };
  return {
    configured: true,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    secretHint: row.secretHint,
    ...(secret ? { secret } : {}),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the log says about one attempt; null when it succeeded. */
function attemptError(result: SendResult): string | null {
  if (result.kind !== 'answered') return result.error;
  const code = result.statusCode;
  if (code >= 200 && code < 300) return null;
  if (code >= 300 && code < 400) return `The receiver answered ${code}; redirects are not followed`;
  const excerpt = result.bodyExcerpt.replace(/\s+/g, ' ').trim().slice(0, 200);
  return `The receiver answered ${code}${excerpt ? `: ${excerpt}` : ''}`;
}

export class WebhookService {
  private readonly box: SecretBox;

  constructor(private readonly deps: WebhookServiceDeps) {
    // Unreadable after a JWT_SECRET change: deliveries then fail with a message asking to rotate the secret.
    this.box = new SecretBox(deps.serverSecret, 'olympus webhook signing secrets v1');
  }

  private async find(userId: string): Promise<WebhookRow | null> {
    const [row] = await this.deps.db.select().from(webhooks).where(eq(webhooks.userId, userId)).limit(1);
    return row ?? null;
  }

  async getSettings(userId: string): Promise<WebhookSettings> {
    return toSettingsDto(await this.find(userId));
  }

  /**
   * The same checks a delivery makes, at save time, so a mistake shows on the field instead of in the
   * delivery log later. Deliveries check again: DNS answers change.
   */
  private async checkUrl(url: string): Promise<void> {
    const timeout = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new TargetRefusedError('The host name could not be resolved in time; check it and try again')), SAVE_RESOLVE_TIMEOUT_MS).unref();
    });
    try {
      await Promise.race([vetTarget(url, { allowPrivate: this.deps.allowPrivateTargets }), timeout]);
    } catch (err) {
      if (err instanceof TargetRefusedError) throw urlFieldError(err.message);
      throw err;
    }
  }

  /** Creates (with a new secret, answered once in full) or updates the user's webhook. */
  async saveSettings(userId: string, body: WebhookSettingsBody): Promise<WebhookSettings> {
    const [user] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw notFound('User not found');
    await this.checkUrl(body.url);
    const secret = generateSecret();
    const [row] = await this.deps.db
      .insert(webhooks)
      .values({ userId, url: body.url, events: body.events, enabled: body.enabled, secretCiphertext: this.box.seal(secret), secretHint: secretHint(secret) })
      .onConflictDoUpdate({
        target: webhooks.userId,
        set: { url: body.url, events: body.events, enabled: body.enabled, updatedAt: sql`now()` },
      })
      .returning({ ...getTableColumns(webhooks), inserted: sql<boolean>`(xmax = 0)` });
    // xmax = 0 only for a freshly inserted row: the new secret is shown exactly then.
    const { inserted, ...saved } = row!;
    return toSettingsDto(saved, inserted ? secret : undefined);
  }

  async rotateSecret(userId: string): Promise<{ secret: string; secretHint: string }> {
    const secret = generateSecret();
    const hint = secretHint(secret);
    const [row] = await this.deps.db
      .update(webhooks)
      .set({ secretCiphertext: this.box.seal(secret), secretHint: hint, secretRotatedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(webhooks.userId, userId))
      .returning({ userId: webhooks.userId });
    if (!row) throw notConfigured();
    this.deps.log.info({ userId }, 'webhook secret rotated');
    return { secret, secretHint: hint };
  }

  /** Queues a `webhook.test` delivery to the saved URL (also when the webhook is turned off). */
  async sendTest(userId: string): Promise<WebhookDelivery> {
    return this.deps.db.transaction(async (tx) => {
      const [hook] = await tx.select({ userId: webhooks.userId }).from(webhooks).where(eq(webhooks.userId, userId)).limit(1);
      if (!hook) throw notConfigured();
      const [delivery] = await tx
        .insert(webhookDeliveries)
        .values({ userId, event: WEBHOOK_TEST_EVENT, payload: { message: 'This is a test delivery from Olympus.' } })
        .returning();
      await this.deps.jobs.send(DELIVER_JOB, { deliveryId: delivery!.id } satisfies DeliverJobData, { tx });
      return toDeliveryDto(delivery!);
    });
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
    return { deliveries: rows.map(toDeliveryDto), page: page.page, pageSize: page.pageSize, total: total?.n ?? 0 };
  }

  /**
   * One attempt of one delivery (the pg-boss job). Succeeds on a 2xx; throws on a network error or
   * any other answer so pg-boss retries it with backoff, until MAX_ATTEMPTS. A refused target, a
   * removed or turned-off webhook and an unreadable secret end the delivery at once: retrying cannot help.
   */
  async deliver(deliveryId: string): Promise<void> {
    const [delivery] = await this.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).limit(1);
    if (!delivery || delivery.status !== 'pending') return;
    const hook = await this.find(delivery.userId);
    const log = this.deps.log.child({ deliveryId, event: delivery.event, userId: delivery.userId });

    let stop: string | null = null;
    if (!hook) stop = 'The webhook was removed';
    else if (!hook.enabled && delivery.event !== WEBHOOK_TEST_EVENT) stop = 'The webhook is turned off';
    const secret = hook ? this.box.open(hook.secretCiphertext) : null;
    if (!stop && !secret) stop = 'The signing secret cannot be read (the server key changed); rotate the secret in settings';
    if (stop || !hook || !secret) {
      await this.record(delivery, hook?.url ?? '', { kind: 'refused', error: stop ?? 'Not deliverable', durationMs: 0 }, true);
      log.warn({ reason: stop }, 'webhook delivery stopped');
      return;
    }

    const timestamp = Math.floor(Date.now() / 1000);
    // The body is the same for every attempt; only the timestamp (and so the signature) changes.
    const body = JSON.stringify({ id: delivery.id, event: delivery.event, createdAt: delivery.createdAt.toISOString(), data: delivery.payload });
    const result = await sendWebhook(
      {
        url: hook.url,
        body,
        headers: {
          [WEBHOOK_HEADERS.event]: delivery.event,
          [WEBHOOK_HEADERS.delivery]: delivery.id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signPayload(secret, timestamp, body),
        },
      },
      { allowPrivate: this.deps.allowPrivateTargets },
    );
    const error = attemptError(result);
    const attempt = delivery.attempts + 1;
    const final = error === null || result.kind === 'refused' || attempt >= MAX_ATTEMPTS;
    await this.record(delivery, hook.url, result, final);
    const statusCode = result.kind === 'answered' ? result.statusCode : null;
    if (error === null) {
      log.info({ attempt, statusCode, durationMs: result.durationMs }, 'webhook delivered');
      return;
    }
    log.warn({ attempt, statusCode, error, final, durationMs: result.durationMs }, 'webhook attempt failed');
    if (!final) throw new Error(`webhook attempt ${attempt} failed: ${error}`);
  }

  /** The attempt's log row and the delivery's summary, together. */
  private async record(delivery: WebhookDeliveryRow, url: string, result: SendResult, final: boolean): Promise<void> {
    const error = attemptError(result);
    const statusCode = result.kind === 'answered' ? result.statusCode : null;
    const status = error === null ? 'succeeded' : final ? 'failed' : 'pending';
    await this.deps.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(webhookDeliveries)
        .set({
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          status,
          lastStatusCode: statusCode,
          lastError: error,
          lastAttemptAt: sql`now()`,
          ...(error === null ? { deliveredAt: sql`now()` } : {}),
        })
        .where(eq(webhookDeliveries.id, delivery.id))
        .returning({ attempts: webhookDeliveries.attempts });
      await tx.insert(webhookDeliveryAttempts).values({
        deliveryId: delivery.id,
        attempt: updated?.attempts ?? delivery.attempts + 1,
        url,
        statusCode,
        error,
        durationMs: result.durationMs,
      });
    });
  }
}
