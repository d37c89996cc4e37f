import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { DELIVER_JOB, type DeliverJobData } from './webhook-events.js';
import { registerWebhookRoutes } from './webhooks.routes.js';
import { MAX_ATTEMPTS, WebhookService } from './webhooks.service.js';

/**
 * Outbound webhooks (design.md section 10): the settings routes (webhooks.routes.ts) and the delivery job. Other modules report events through `ctx.webhookEvents` (webhook-events.ts).
 */
export function registerWebhooks(app: FastifyInstance, ctx: AppContext): WebhookService {
  const service = new WebhookService({
    db: ctx.database.db,
    jobs: ctx.jobs,
    log: app.log,
    serverSecret: ctx.config.jwtSecret,
    allowPrivateTargets: ctx.config.webhooks.allowPrivateTargets,
  });

  ctx.jobs.define<DeliverJobData>({
    name: DELIVER_JOB,
    // A few more than the service's own limit: a run lost to a crash still leaves room to finish.
    retryLimit: MAX_ATTEMPTS + 2,
    expireInSeconds: 60,
    // Receivers may take up to the 10 s timeout; one slow receiver must not delay everyone else's.
    concurrency: 4,
    handler: (data) => service.deliver(data.deliveryId),
  });

  registerWebhookRoutes(app, ctx, service);
  return service;
}
