import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiKeyListResponseSchema,
  apiKeyResponseSchema,
  createApiKeyBodySchema,
  createApiKeyResponseSchema,
} from '#shared/schemas/charges.js';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import { stepUpBodySchema } from '#shared/schemas/two-factor.js';
import type { AppContext } from '#server/context.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { Actor, ApiKeyService } from './api-keys.service.js';

/** The console's API keys (admin only, each change audited). */
export function registerApiKeyRoutes(app: FastifyInstance, ctx: AppContext, keys: ApiKeyService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['operator console'];
  const security = [{ bearer: [] }];
  const actor = async (userId: string): Promise<Actor> => ({
    id: userId,
    username: (await findUserById(ctx.database.db, userId))?.username ?? 'unknown',
  });

  api.get(
    '/admin/api-keys',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary: 'API keys of the charge API (never the keys themselves)',
        security,
        response: { 200: apiKeyListResponseSchema, ...errorResponses },
      },
    },
    async () => ({ apiKeys: await keys.list() }),
  );

  api.post(
    '/admin/api-keys',
    {
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags,
        summary: 'Create an API key; the answer is the only time the key is shown',
        security,
        body: createApiKeyBodySchema,
        response: { 201: createApiKeyResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const created = await keys.create(await actor(request.auth!.userId!), request.body);
      return reply.status(201).header('cache-control', 'no-store').send(created);
    },
  );

  api.post(
    '/admin/api-keys/:id/revoke',
    {
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags,
        summary: 'Revoke an API key (at once, on every instance; the second factor in the body when two-factor is on)',
        security,
        params: idParamsSchema,
        body: stepUpBodySchema,
        response: { 200: apiKeyResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ apiKey: await keys.revoke(await actor(request.auth!.userId!), request.params.id) }),
  );
}
