import {
  WEBHOOK_RETRY_DELAYS_SECONDS,
  type RotateWebhookSecretResponse,
  type WebhookDelivery,
  type WebhookSettings,
  type WebhookSettingsBody,
} from '#shared/schemas/webhooks.js';
import { SecretBox } from '#server/secret-box.js';
import { WebhookDeliveryAttempts } from './delivery-attempts.js';
import { WebhookDeliveryLog } from './delivery-log.js';
import type { WebhookServiceDeps } from './webhook-deps.js';
import { WebhookSettingsFlows } from './webhook-settings.js';

export type { WebhookServiceDeps } from './webhook-deps.js';
export { toDeliveryDto } from './webhook-rows.js';

/** Automatic attempts per delivery: the first, then one per retry delay (the last about 27.6 hours in). */
export const MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;

export class WebhookService {
  // The module's one entry point: routes, jobs and tests call this class, and it hands each call to the
  // file of its concern. Its parts share one SecretBox and one clock, built here once per instance.
  private readonly box: SecretBox;
  private readonly now: () => Date;
  private readonly settings: WebhookSettingsFlows;
  private readonly deliveryLog: WebhookDeliveryLog;
  private readonly attempts: WebhookDeliveryAttempts;

  constructor(private readonly deps: WebhookServiceDeps) {
    // Unreadable after a JWT_SECRET change: deliveries then fail with a message asking to rotate the secret.
    this.box = new SecretBox(deps.serverSecret, 'olympus webhook signing secrets v1');
    this.now = deps.now ?? (() => new Date());
    this.settings = new WebhookSettingsFlows(deps, this.box, this.now);
    this.deliveryLog = new WebhookDeliveryLog(deps, this.now);
    this.attempts = new WebhookDeliveryAttempts(deps, this.box, this.now, this.deliveryLog);
  }

  // ---- Settings (webhook-settings.ts) ----

  getSettings(userId: string): Promise<WebhookSettings> {
    return this.settings.getSettings(userId);
  }

  saveSettings(userId: string, body: WebhookSettingsBody): Promise<WebhookSettings> {
    return this.settings.saveSettings(userId, body);
  }

  enable(userId: string): Promise<WebhookSettings> {
    return this.settings.enable(userId);
  }

  rotateSecret(userId: string): Promise<RotateWebhookSecretResponse> {
    return this.settings.rotateSecret(userId);
  }

  // ---- The delivery log (delivery-log.ts) ----

  sendTest(userId: string): Promise<WebhookDelivery> {
    return this.deliveryLog.sendTest(userId);
  }

  listDeliveries(userId: string, page: { page: number; pageSize: number }) {
    return this.deliveryLog.listDeliveries(userId, page);
  }

  // ---- Delivery attempts: the job, a replay, the sweep (delivery-attempts.ts) ----

  deliver(deliveryId: string): Promise<void> {
    return this.attempts.deliver(deliveryId);
  }

  replay(userId: string, deliveryId: string): Promise<WebhookDelivery> {
    return this.attempts.replay(userId, deliveryId);
  }

  sweep(): Promise<number> {
    return this.attempts.sweep();
  }
}
