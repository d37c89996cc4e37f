import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/schemas/common.js';
import {
  rotateWebhookSecretResponseSchema,
  sendTestWebhookResponseSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveriesResponseSchema,
  webhookSettingsBodySchema,
  webhookSettingsSchema,
} from '../../../shared/schemas/webhooks.js';
import type { AppContext } from '../../context.js';
import type { RateLimitRule } from '../rate-limit/rate-limit.service.js';
import { DELIVER_JOB, registerWebhookQueue, type DeliverJobData } from './webhook-events.js';
import { MAX_ATTEMPTS, WebhookService } from './webhooks.service.js';

/** Saving resolves a host name; testing makes this server call out. Both bounded per account. */
const SAVE_LIMIT: RateLimitRule = { name: 'webhook-save:user', limit: 30, windowSeconds: 10 * 60 };
const ROTATE_LIMIT: RateLimitRule = { name: 'webhook-rotate:user', limit: 10, windowSeconds: 60 * 60 };
const TEST_LIMIT: RateLimitRule = { name: 'webhook-test:user', limit: 10, windowSeconds: 10 * 60 };

/**
 * Outbound webhooks (design.md section 10): the settings calls under /api/users, the delivery log, and
 * the delivery job. Other modules report events with `enqueueWebhookEvent` (webhook-events.ts).
 */
export function registerWebhooks(app: FastifyInstance, ctx: AppContext): WebhookService {
  const api = app.withTypeProvider<ZodTypeProvider>();
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
  // Other modules find this queue through their transaction's database once the queue runs.
  let unregister: (() => void) | null = null;
  app.addHook('onReady', async () => {
    await ctx.jobs.start();
    unregister = registerWebhookQueue(ctx.database, ctx.jobs, app.log);
  });
  app.addHook('preClose', async () => {
    unregister?.();
    unregister = null;
  });

  const security = [{ bearer: [] }];
  const tags = ['webhooks'];

  api.get(
    '/users/webhook-settings',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Your webhook settings (the secret masked)', security, response: { 200: webhookSettingsSchema, ...errorResponses } },
    },
    async (request) => service.getSettings(request.auth!.userId!),
  );

  api.put(
    '/users/webhook-settings',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Save your webhook URL, events and on/off switch; the first save answers the signing secret once',
        security,
        body: webhookSettingsBodySchema,
        response: { 200: webhookSettingsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const userId = request.auth!.userId!;
      await ctx.rateLimiter.consume(SAVE_LIMIT, userId);
      return service.saveSettings(userId, request.body);
    },
  );

  api.post(
    '/users/webhook-settings/rotate-secret',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Replace the signing secret; the new one is answered once', security, response: { 200: rotateWebhookSecretResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const userId = request.auth!.userId!;
      await ctx.rateLimiter.consume(ROTATE_LIMIT, userId);
      return service.rotateSecret(userId);
    },
  );

  api.post(
    '/users/webhook-settings/test',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Queue a webhook.test delivery to the saved URL', security, response: { 202: sendTestWebhookResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const userId = request.auth!.userId!;
      await ctx.rateLimiter.consume(TEST_LIMIT, userId);
      const delivery = await service.sendTest(userId);
      return reply.status(202).send({ delivery });
    },
  );

  api.get(
    '/users/webhook-deliveries',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Your webhook deliveries, newest first',
        security,
        querystring: webhookDeliveriesQuerySchema,
        response: { 200: webhookDeliveriesResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.listDeliveries(request.auth!.userId!, request.query),
  );

  return service;
}
