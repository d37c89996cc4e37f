import type { FastifyBaseLogger } from 'fastify';
import type { NowPaymentsConfig } from '#server/config.js';
import type { Db } from '#server/db/client.js';
import type { InvalidationBus } from '#server/db/invalidation.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import type { NowPaymentsClient } from './nowpayments.client.js';

/** What PaymentsService is built with; each of its parts (deposits, reads, updates, IPNs, reconciliation) takes it whole. */
export interface PaymentsServiceDeps {
  db: Db;
  client: NowPaymentsClient;
  config: NowPaymentsConfig;
  limitsUsd: { min: number; max: number };
  /** Where the provider sends IPNs for new payments. */
  ipnCallbackUrl: () => string;
  log: FastifyBaseLogger;
  webhookEvents: WebhookEvents;
  /** "Payment credited" mails (optional: a service built without it sends none). */
  mail?: MailService;
  /** In-app and chat notices of each status step (optional like mail). */
  notifications?: NotificationsService;
  /** Status changes heard from every instance: without it, each status poll reads the database. */
  invalidation?: InvalidationBus;
}

export type UpdateSource = 'ipn' | 'reconcile' | 'check';
