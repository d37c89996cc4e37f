import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import type { SwapClient } from './swap.client.js';

/** What ExchangeService is built with; each of its parts (quotes, creation, provider updates) takes it whole. */
export interface ExchangeServiceDeps {
  db: Db;
  client: SwapClient;
  rewardPercent: number;
  log: FastifyBaseLogger;
  webhookEvents: WebhookEvents;
  /** "Exchange finished" and "reward claimed" notices (optional). */
  notifications?: NotificationsService;
}

export type UpdateSource = 'poll' | 'read' | 'sandbox';
