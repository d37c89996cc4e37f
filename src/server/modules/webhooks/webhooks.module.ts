import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { DELIVER_JOB, type DeliverJobData, type WebhookEvents } from './webhook-events.js';
import { webhookSubscriber } from './webhook-subscriber.js';
import { registerWebhookRoutes } from './webhooks.routes.js';
import { WebhookService } from './webhooks.service.js';

/**
 * Outbound webhooks (docs/product.md#webhooks): the settings routes (webhooks.routes.ts), the delivery job, and
 * the subscription that turns the domain events a webhook may want into deliveries (webhook-subscriber.ts).
 */
export function registerWebhooksModule(app: FastifyInstance, ctx: AppContext, webhookEvents: WebhookEvents): WebhookService {
  const service = new WebhookService({
    db: ctx.database.db,
    jobs: ctx.jobs,
    log: app.log,
    serverSecret: ctx.config.jwtSecret,
    allowPrivateTargets: ctx.config.webhooks.allowPrivateTargets,
    events: ctx.events,
  });

  ctx.events.subscribe(webhookSubscriber(webhookEvents));

  ctx.jobs.define<Partial<DeliverJobData>>({
    name: DELIVER_JOB,
    // The service schedules its own retries (decision 0180); pg-boss retries only a run that crashed.
    retryLimit: 2,
    expireInSeconds: 60,
    // Receivers may take up to the 10 s timeout; one slow receiver must not delay everyone else's.
    concurrency: 4,
    // The minute tick (an empty job) re-queues due deliveries whose job was lost.
    cron: '* * * * *',
    handler: async (data) => {
      if (typeof data.deliveryId === 'string') return service.deliver(data.deliveryId);
      await service.sweep();
    },
  });

  registerWebhookRoutes(app, ctx, service);
  return service;
}
