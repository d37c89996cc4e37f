import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerApiKeyRoutes } from './api-keys.routes.js';
import type { ApiKeyService } from './api-keys.service.js';

/**
 * The console's API keys. The service is the one the API-key request guard checks keys with
 * (src/server/http/guards.ts builds both), so a revoked key stops working at once.
 */
export function registerApiKeysModule(api: FastifyInstance, ctx: AppContext, keys: ApiKeyService): void {
  registerApiKeyRoutes(api, ctx, keys);
}
