import { eq, getTableColumns, sql } from 'drizzle-orm';
import {
  WEBHOOK_SECRET_OVERLAP_HOURS,
  type RotateWebhookSecretResponse,
  type WebhookSettings,
  type WebhookSettingsBody,
} from '#shared/schemas/webhooks.js';
import { AppError, notFound } from '#server/errors.js';
import { users } from '#server/modules/users/users.tables.js';
import type { SecretBox } from '#server/secret-box.js';
import { TargetRefusedError, vetTarget } from './address-policy.js';
import { generateSecret, secretHint } from './signing.js';
import type { WebhookServiceDeps } from './webhook-deps.js';
import { findWebhook, iso, notConfigured } from './webhook-rows.js';
import { webhooks, type WebhookRow } from './webhooks.tables.js';

/** Resolving the host while saving must not hold the request for long. */
const SAVE_RESOLVE_TIMEOUT_MS = 3000;
const HOUR_MS = 3600 * 1000;

function urlFieldError(message: string): AppError {
  return new AppError('VALIDATION_ERROR', `Invalid request: ${message}`, { details: { fields: { url: message }, location: 'body' } });
}

/** The user's webhook settings: reading, saving (with the URL checked), turning it on again, rotating the secret. */
export class WebhookSettingsFlows {
  constructor(
    private readonly deps: WebhookServiceDeps,
    private readonly box: SecretBox,
    private readonly now: () => Date,
  ) {}

  private async find(userId: string): Promise<WebhookRow | null> {
    return findWebhook(this.deps.db, userId);
  }

  private toSettingsDto(row: WebhookRow | null, secret?: string): WebhookSettings {
    if (!row) {
      return {
        configured: false,
        url: null,
        events: [],
        enabled: false,
        secretHint: null,
        legacySecret: false,
        previousSecretExpiresAt: null,
        disabledAt: null,
        failingSince: null,
        updatedAt: null,
        privateTargetsAllowed: this.deps.allowPrivateTargets,
      };
    }
    const overlap =
      row.previousSecretCiphertext && row.previousSecretExpiresAt && row.previousSecretExpiresAt > this.now()
        ? row.previousSecretExpiresAt
        : null;
    return {
      configured: true,
      url: row.url,
      events: row.events,
      enabled: row.enabled,
      secretHint: row.secretHint,
      ...(secret ? { secret } : {}),
      legacySecret: row.legacySecret,
      previousSecretExpiresAt: iso(overlap),
      disabledAt: iso(row.disabledAt),
      failingSince: iso(row.failingSince),
      updatedAt: row.updatedAt.toISOString(),
      privateTargetsAllowed: this.deps.allowPrivateTargets,
    };
  }

  async getSettings(userId: string): Promise<WebhookSettings> {
    return this.toSettingsDto(await this.find(userId));
  }

  /**
   * The same checks a delivery makes, at save time, so a mistake shows on the field instead of in the
   * delivery log later. Deliveries check again: DNS answers change.
   */
  private async checkUrl(url: string): Promise<void> {
    const timeout = new Promise<never>((_, reject) => {
      setTimeout(
        () => reject(new TargetRefusedError('The host name could not be resolved in time; check it and try again')),
        SAVE_RESOLVE_TIMEOUT_MS,
      ).unref();
    });
    try {
      await Promise.race([vetTarget(url, { allowPrivate: this.deps.allowPrivateTargets }), timeout]);
    } catch (err) {
      if (err instanceof TargetRefusedError) throw urlFieldError(err.message);
      throw err;
    }
  }

  /**
   * Creates (with a new secret, answered once in full) or updates the user's webhook. Saving clears a
   * failure-disabled state (the user has looked at it); a new URL or turning it back on starts the
   * five-day failure count afresh.
   */
  async saveSettings(userId: string, body: WebhookSettingsBody): Promise<WebhookSettings> {
    const [user] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw notFound('User not found');
    await this.checkUrl(body.url);
    const secret = generateSecret();
    const [row] = await this.deps.db
      .insert(webhooks)
      .values({
        userId,
        url: body.url,
        events: body.events,
        enabled: body.enabled,
        secretCiphertext: this.box.seal(secret),
        secretHint: secretHint(secret),
      })
      .onConflictDoUpdate({
        target: webhooks.userId,
        set: {
          url: body.url,
          events: body.events,
          enabled: body.enabled,
          failingSince: sql`CASE WHEN ${webhooks.url} <> ${body.url} OR (${webhooks.disabledAt} IS NOT NULL AND ${body.enabled}) THEN NULL ELSE ${webhooks.failingSince} END`,
          disabledAt: null,
          updatedAt: sql`now()`,
        },
      })
      .returning({ ...getTableColumns(webhooks), inserted: sql<boolean>`(xmax = 0)` });
    // xmax = 0 only for a freshly inserted row: the new secret is shown exactly then.
    const { inserted, ...saved } = row!;
    return this.toSettingsDto(saved, inserted ? secret : undefined);
  }

  /** Turns a webhook on again (after failures disabled it): the failure count starts afresh. */
  async enable(userId: string): Promise<WebhookSettings> {
    const hook = await this.find(userId);
    if (!hook) throw notConfigured();
    if (hook.events.length === 0) {
      throw new AppError('WEBHOOK_NO_EVENTS', 'Choose at least one event before turning the webhook on');
    }
    const [row] = await this.deps.db
      .update(webhooks)
      .set({ enabled: true, disabledAt: null, failingSince: null, updatedAt: sql`now()` })
      .where(eq(webhooks.userId, userId))
      .returning();
    this.deps.log.info({ userId, wasDisabledAt: hook.disabledAt }, 'webhook turned on again');
    return this.toSettingsDto(row ?? null);
  }

  /**
   * A new secret; the one it replaces keeps signing next to it for 24 hours, so receivers can switch
   * without missing a delivery. Rotating again within those hours retires the oldest at once.
   */
  async rotateSecret(userId: string): Promise<RotateWebhookSecretResponse> {
    const secret = generateSecret();
    const hint = secretHint(secret);
    const now = this.now();
    return this.deps.db.transaction(async (tx) => {
      const [hook] = await tx.select().from(webhooks).where(eq(webhooks.userId, userId)).for('update').limit(1);
      if (!hook) throw notConfigured();
      // A secret the server can no longer read (JWT_SECRET changed) signs nothing: no overlap for it.
      const previousReadable = this.box.open(hook.secretCiphertext) !== null;
      const expiresAt = previousReadable ? new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * HOUR_MS) : null;
      await tx
        .update(webhooks)
        .set({
          secretCiphertext: this.box.seal(secret),
          secretHint: hint,
          legacySecret: false,
          previousSecretCiphertext: previousReadable ? hook.secretCiphertext : null,
          previousSecretExpiresAt: expiresAt,
          secretRotatedAt: now,
          updatedAt: sql`now()`,
        })
        .where(eq(webhooks.userId, userId));
      this.deps.log.info({ userId, overlapUntil: expiresAt }, 'webhook secret rotated');
      return { secret, secretHint: hint, previousSecretExpiresAt: iso(expiresAt) };
    });
  }
}
