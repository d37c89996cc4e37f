import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.js';
import type { JobQueue } from '#server/jobs/job-queue.js';
import type { DomainEvents } from '#server/events/domain-events.js';

/** What WebhookService is built with; each of its parts (settings, the delivery log, the attempts) takes it whole. */
export interface WebhookServiceDeps {
  db: Db;
  jobs: Pick<JobQueue, 'send'>;
  log: FastifyBaseLogger;
  serverSecret: Uint8Array;
  allowPrivateTargets: boolean;
  /** Where a webhook turned off by failures is reported (its owner is mailed and notified); none in some tests. */
  events?: DomainEvents;
  /** The time: schedules, the signing timestamp, rotation overlaps and the five-day rule all read it (tests move it). */
  now?: () => Date;
}
