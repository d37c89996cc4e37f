import { and, asc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import {
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_HEADERS,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_TEST_EVENT,
  type WebhookAttemptTrigger,
  type WebhookDelivery,
} from '#shared/schemas/webhooks.js';
import type { Tx } from '#server/db/client.js';
import { AppError } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { users } from '#server/modules/users/users.tables.js';
import type { SecretBox } from '#server/secret-box.js';
import type { WebhookDeliveryLog } from './delivery-log.js';
import { sendWebhook, type SendResult } from './sender.js';
import { signatureHeader } from './signing.js';
import type { WebhookServiceDeps } from './webhook-deps.js';
import { DELIVER_JOB, type DeliverJobData } from './webhook-events.js';
import { deliveryNotFound, findWebhook, notConfigured } from './webhook-rows.js';
import { webhookDeliveries, webhookDeliveryAttempts, webhooks, type WebhookDeliveryRow, type WebhookRow } from './webhooks.tables.js';

/** An attempt holds its delivery this long (the send is bounded by 10 s plus the address check). */
const CLAIM_SECONDS = 60;
/** A job may run a little before the due time its delivery row says (clocks, rounding). */
const DUE_SLACK_MS = 2000;
/** The sweep re-queues deliveries due longer ago than this (their job was lost or ran early). */
const SWEEP_GRACE_SECONDS = 60;
const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** What the log says about one attempt; null when it succeeded. */
function attemptError(result: SendResult): string | null {
  if (result.kind !== 'answered') return result.error;
  const code = result.statusCode;
  if (code >= 200 && code < 300) return null;
  if (code >= 300 && code < 400) return `The receiver answered ${code}; redirects are not followed`;
  const excerpt = result.bodyExcerpt.replace(/\s+/g, ' ').trim().slice(0, 200);
  return `The receiver answered ${code}${excerpt ? `: ${excerpt}` : ''}`;
}

/** The body every attempt of a message sends: Standard Webhooks' `type`/`timestamp`/`data`, plus 0080's `event`/`createdAt`. */
function messageBody(delivery: WebhookDeliveryRow): string {
  const createdAt = delivery.createdAt.toISOString();
  return JSON.stringify({
    id: delivery.id,
    type: delivery.event,
    timestamp: createdAt,
    data: delivery.payload,
    event: delivery.event,
    createdAt,
  });
}

/** Sending deliveries: the automatic attempts, a replay by hand, the sweep, and what each attempt records. */
export class WebhookDeliveryAttempts {
  constructor(
    private readonly deps: WebhookServiceDeps,
    private readonly box: SecretBox,
    private readonly now: () => Date,
    private readonly deliveryLog: WebhookDeliveryLog,
  ) {}

  private async find(userId: string): Promise<WebhookRow | null> {
    return findWebhook(this.deps.db, userId);
  }

  /** The secrets that sign right now: the current one, and the previous one during its overlap. */
  private signingSecrets(hook: WebhookRow): string[] | null {
    const current = this.box.open(hook.secretCiphertext);
    if (!current) return null;
    const secrets = [current];
    if (hook.previousSecretCiphertext && hook.previousSecretExpiresAt && hook.previousSecretExpiresAt > this.now()) {
      const previous = this.box.open(hook.previousSecretCiphertext);
      if (previous) secrets.push(previous);
    }
    return secrets;
  }

  /**
   * One automatic attempt of one delivery (the pg-boss job), once it is due. A 2xx ends it; any other
   * answer or a network error schedules the next attempt (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) as a
   * delayed job, and after the last one the delivery has failed. A refused target, a removed or
   * turned-off webhook and an unreadable secret end the delivery at once: retrying cannot help.
   */
  async deliver(deliveryId: string): Promise<void> {
    const now = this.now();
    const [delivery] = await this.deps.db
      .update(webhookDeliveries)
      .set({ claimedUntil: new Date(now.getTime() + CLAIM_SECONDS * 1000) })
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.status, 'pending'),
          or(isNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.nextAttemptAt, new Date(now.getTime() + DUE_SLACK_MS))),
          or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
        ),
      )
      .returning();
    // Finished, not due yet (the sweep or a later job brings it), or another worker has it.
    if (!delivery) return;
    await this.attempt(delivery, 'automatic');
  }

  /**
   * Sends a delivery again by hand, from the delivery log: a new attempt of the same message (same
   * `webhook-id` and body, a fresh timestamp and signature), also while it waits for a retry or after it
   * failed or succeeded, and also while the webhook is turned off. Only the owner's deliveries; recorded
   * in the audit log.
   */
  async replay(userId: string, deliveryId: string): Promise<WebhookDelivery> {
    const now = this.now();
    const [owned] = await this.deps.db
      .select({ id: webhookDeliveries.id, claimedUntil: webhookDeliveries.claimedUntil })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.userId, userId)))
      .limit(1);
    if (!owned) throw deliveryNotFound();
    if (!(await this.find(userId))) throw notConfigured();
    const [delivery] = await this.deps.db
      .update(webhookDeliveries)
      .set({ claimedUntil: new Date(now.getTime() + CLAIM_SECONDS * 1000) })
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          eq(webhookDeliveries.userId, userId),
          or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
        ),
      )
      .returning();
    if (!delivery) throw new AppError('WEBHOOK_DELIVERY_BUSY', 'This delivery is being sent right now; try again in a moment');
    const [user] = await this.deps.db.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
    await recordAudit(this.deps.db, {
      actor: { id: userId, username: user?.username ?? userId },
      action: 'webhook.delivery.replay',
      targetType: 'webhook_delivery',
      targetId: deliveryId,
      before: { status: delivery.status, attempts: delivery.attempts },
    });
    await this.attempt(delivery, 'manual');
    return this.deliveryLog.deliveryDto(deliveryId);
  }

  /**
   * Re-queues pending deliveries that are due but have no job running them (a job lost in a crash, or
   * one that ran before the delivery was due). The delivery queue's cron runs it every minute.
   */
  async sweep(): Promise<number> {
    const now = this.now();
    const due = await this.deps.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, new Date(now.getTime() - SWEEP_GRACE_SECONDS * 1000)),
          or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(100);
    for (const row of due)
      await this.deps.jobs.send(DELIVER_JOB, { deliveryId: row.id } satisfies DeliverJobData, { singletonKey: `webhook:${row.id}` });
    return due.length;
  }

  /** One attempt of a claimed delivery: sign, send, record. */
  private async attempt(delivery: WebhookDeliveryRow, trigger: WebhookAttemptTrigger): Promise<void> {
    const hook = await this.find(delivery.userId);
    const log = this.deps.log.child({ deliveryId: delivery.id, event: delivery.event, userId: delivery.userId, trigger });

    let stop: string | null = null;
    const [owner] = await this.deps.db.select({ closingAt: users.closingAt }).from(users).where(eq(users.id, delivery.userId)).limit(1);
    if (!hook) stop = 'The webhook was removed';
    else if (owner?.closingAt) stop = 'The account is closing';
    else if (!hook.enabled && trigger === 'automatic' && delivery.event !== WEBHOOK_TEST_EVENT) {
      stop = hook.disabledAt ? 'The webhook was turned off after five days of failed deliveries' : 'The webhook is turned off';
    }
    const secrets = hook ? this.signingSecrets(hook) : null;
    if (!stop && !secrets) stop = 'The signing secret cannot be read (the server key changed); rotate the secret in settings';
    if (stop || !hook || !secrets) {
      await this.record(
        delivery,
        trigger,
        hook?.url ?? '',
        { kind: 'refused', error: stop ?? 'Not deliverable', durationMs: 0 },
        { countsAsFailure: false },
      );
      log.warn({ reason: stop }, 'webhook delivery stopped');
      return;
    }

    const timestamp = Math.floor(this.now().getTime() / 1000);
    // The body and id are the same for every attempt; only the timestamp (and so the signatures) change.
    const body = messageBody(delivery);
    const result = await sendWebhook(
      {
        url: hook.url,
        body,
        headers: {
          [WEBHOOK_HEADERS.id]: delivery.id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signatureHeader(secrets, delivery.id, timestamp, body),
          [WEBHOOK_HEADERS.event]: delivery.event,
        },
      },
      { allowPrivate: this.deps.allowPrivateTargets },
    );
    const outcome = await this.record(delivery, trigger, hook.url, result, { countsAsFailure: true });
    const statusCode = result.kind === 'answered' ? result.statusCode : null;
    if (outcome.error === null) log.info({ statusCode, durationMs: result.durationMs }, 'webhook delivered');
    else
      log.warn(
        { statusCode, error: outcome.error, nextAttemptAt: outcome.nextAttemptAt, durationMs: result.durationMs },
        'webhook attempt failed',
      );
  }

  /**
   * The attempt's log row, the delivery's summary and next attempt (with its delayed job), and the
   * webhook's failure streak, together. Five days of failures without a success turn the webhook off
   * and mail its owner, in the same transaction.
   */
  private async record(
    delivery: WebhookDeliveryRow,
    trigger: WebhookAttemptTrigger,
    url: string,
    result: SendResult,
    options: { countsAsFailure: boolean },
  ): Promise<{ error: string | null; nextAttemptAt: Date | null }> {
    const now = this.now();
    const error = attemptError(result);
    const statusCode = result.kind === 'answered' ? result.statusCode : null;
    const autoAttempts = delivery.autoAttempts + (trigger === 'automatic' ? 1 : 0);

    let status = delivery.status;
    let nextAttemptAt: Date | null = delivery.status === 'pending' ? delivery.nextAttemptAt : null;
    if (error === null) {
      status = 'succeeded';
      nextAttemptAt = null;
    } else if (result.kind === 'refused') {
      // Nothing to retry: the target is refused or the webhook cannot send. A replay leaves the schedule alone.
      if (trigger === 'automatic') {
        status = 'failed';
        nextAttemptAt = null;
      }
    } else if (trigger === 'automatic') {
      const delay = WEBHOOK_RETRY_DELAYS_SECONDS[autoAttempts - 1];
      status = delay === undefined ? 'failed' : 'pending';
      nextAttemptAt = delay === undefined ? null : new Date(now.getTime() + delay * 1000);
    } else if (delivery.status !== 'pending') {
      // A failed replay of a finished delivery: it stays finished, now as failed.
      status = 'failed';
    }

    await this.deps.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(webhookDeliveries)
        .set({
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          autoAttempts,
          status,
          nextAttemptAt,
          claimedUntil: null,
          lastStatusCode: statusCode,
          lastError: error,
          lastAttemptAt: now,
          ...(error === null ? { deliveredAt: now } : {}),
        })
        .where(eq(webhookDeliveries.id, delivery.id))
        .returning({ attempts: webhookDeliveries.attempts });
      await tx.insert(webhookDeliveryAttempts).values({
        deliveryId: delivery.id,
        attempt: updated?.attempts ?? delivery.attempts + 1,
        trigger,
        url,
        statusCode,
        error,
        responseExcerpt: result.kind === 'answered' ? result.bodyExcerpt || null : null,
        durationMs: result.durationMs,
        attemptedAt: now,
      });
      if (status === 'pending' && nextAttemptAt && trigger === 'automatic') {
        const delaySeconds = Math.max(1, Math.round((nextAttemptAt.getTime() - now.getTime()) / 1000));
        await this.deps.jobs.send(DELIVER_JOB, { deliveryId: delivery.id } satisfies DeliverJobData, {
          tx,
          startAfterSeconds: delaySeconds,
        });
      }
      if (error === null) {
        await tx
          .update(webhooks)
          .set({ failingSince: null })
          .where(and(eq(webhooks.userId, delivery.userId), sql`${webhooks.failingSince} IS NOT NULL`));
      } else if (options.countsAsFailure) {
        await this.trackFailure(tx, delivery.userId, now, error);
      }
    });
    return { error, nextAttemptAt };
  }

  /** Starts or continues the webhook's failure streak; five days of it turn the webhook off and tell the owner. */
  private async trackFailure(tx: Tx, userId: string, now: Date, error: string): Promise<void> {
    const [hook] = await tx
      .update(webhooks)
      .set({ failingSince: sql`COALESCE(${webhooks.failingSince}, ${now.toISOString()}::timestamptz)` })
      .where(eq(webhooks.userId, userId))
      .returning();
    if (!hook?.failingSince || !hook.enabled) return;
    if (now.getTime() - hook.failingSince.getTime() < WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) return;
    const [disabled] = await tx
      .update(webhooks)
      .set({ enabled: false, disabledAt: now, updatedAt: sql`now()` })
      .where(and(eq(webhooks.userId, userId), eq(webhooks.enabled, true)))
      .returning({ userId: webhooks.userId });
    if (!disabled) return;
    this.deps.log.warn({ userId, failingSince: hook.failingSince }, 'webhook turned off after five days of failures');
    await this.deps.events?.emit(tx, {
      type: 'webhook.disabled',
      userId,
      url: hook.url,
      failingSince: hook.failingSince,
      disabledAt: now,
      lastError: error,
    });
  }
}
