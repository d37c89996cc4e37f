import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, uuidParamsSchema } from '#shared/schemas/common.js';
import { stepUpBodySchema } from '#shared/schemas/two-factor.js';
import {
  replayWebhookDeliveryResponseSchema,
  rotateWebhookSecretResponseSchema,
  sendTestWebhookResponseSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveriesResponseSchema,
  webhookSettingsBodySchema,
  webhookSettingsSchema,
  type WebhookSettingsBody,
} from '#shared/schemas/webhooks.js';
import type { AppContext } from '#server/context.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import type { WebhookService } from './webhooks.service.js';

/** Saving resolves a host name; testing makes this server call out. Both bounded per account. */
const SAVE_LIMIT: RateLimitRule = { name: 'webhook-save:user', limit: 30, windowSeconds: 10 * 60 };
const ROTATE_LIMIT: RateLimitRule = { name: 'webhook-rotate:user', limit: 10, windowSeconds: 60 * 60 };
const TEST_LIMIT: RateLimitRule = { name: 'webhook-test:user', limit: 10, windowSeconds: 10 * 60 };
/** A replay calls the receiver while the request waits (up to 10 s). */
const REPLAY_LIMIT: RateLimitRule = { name: 'webhook-replay:user', limit: 30, windowSeconds: 10 * 60 };

/** The webhook settings calls under /api/users and the delivery log (docs/product.md#webhooks). */
export function registerWebhookRoutes(app: FastifyInstance, ctx: AppContext, service: WebhookService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const security = [{ bearer: [] }];
  const tags = ['webhooks'];

  api.get(
    '/users/webhook-settings',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Your webhook settings (the secret masked)',
        security,
        response: { 200: webhookSettingsSchema, ...errorResponses },
      },
    },
    async (request) => service.getSettings(request.auth!.userId!),
  );

  api.put(
    '/users/webhook-settings',
    {
      // A new URL (the first one included) is where the account's events go: the second factor when
      // two-factor is on (decision 0205). Events and the on/off switch alone do not need it.
      config: {
        auth: 'user',
        stepUp: async (request) => (await service.getSettings(request.auth!.userId!)).url !== (request.body as WebhookSettingsBody).url,
      },
      schema: {
        tags,
        summary:
          'Save your webhook URL, events and on/off switch; the first save answers the signing secret once (a new URL needs the second factor when two-factor is on)',
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
      config: { auth: 'user', stepUp: true },
      schema: {
        tags,
        summary: 'Replace the signing secret; the new one is answered once (the second factor in the body when two-factor is on)',
        security,
        body: stepUpBodySchema,
        response: { 200: rotateWebhookSecretResponseSchema, ...errorResponses },
      },
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
      schema: {
        tags,
        summary: 'Queue a webhook.test delivery to the saved URL',
        security,
        response: { 202: sendTestWebhookResponseSchema, ...errorResponses },
      },
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

  api.post(
    '/users/webhook-settings/enable',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Turn your webhook on again (after failures turned it off); the failure count starts afresh',
        security,
        response: { 200: webhookSettingsSchema, ...errorResponses },
      },
    },
    async (request) => service.enable(request.auth!.userId!),
  );

  api.post(
    '/users/webhook-deliveries/:id/replay',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Send one of your deliveries again now: a new attempt of the same message (same webhook-id)',
        security,
        params: uuidParamsSchema('Invalid delivery id'),
        response: { 200: replayWebhookDeliveryResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const userId = request.auth!.userId!;
      await ctx.rateLimiter.consume(REPLAY_LIMIT, userId);
      return { delivery: await service.replay(userId, request.params.id) };
    },
  );
}
