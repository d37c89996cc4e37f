import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';

/** What WebhookService is built with; each of its parts (settings, the delivery log, the attempts) takes it whole. */
export interface WebhookServiceDeps {
  db: Db;
  jobs: Pick<JobQueue, 'send'>;
  log: FastifyBaseLogger;
  serverSecret: Uint8Array;
  allowPrivateTargets: boolean;
  /** Tells the owner when failures disable a webhook; without it (or while stopped) nothing is mailed. */
  mail?: MailService;
  /** The in-app and chat notice of a webhook turned off (optional). */
  notifications?: NotificationsService;
  /** The time: schedules, the signing timestamp, rotation overlaps and the five-day rule all read it (tests move it). */
  now?: () => Date;
}
