import type { FastifyBaseLogger } from 'fastify';
import type { NowPaymentsConfig } from '#server/config.js';
import type { Db } from '#server/db/client.js';
import type { InvalidationBus } from '#server/db/invalidation.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
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
  /** Where each status step and balance change is reported (webhooks, mail and notices subscribe). */
  events: DomainEvents;
  /** The mail to an account whose closure waits for a payment that arrived late (optional). */
  mail?: MailService;
  /** Status changes heard from every instance: without it, each status poll reads the database. */
  invalidation?: InvalidationBus;
}

export type UpdateSource = 'ipn' | 'reconcile' | 'check';
