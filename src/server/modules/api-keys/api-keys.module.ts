import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerApiKeyAuth } from './api-key-auth.js';
import { registerApiKeyRoutes } from './api-keys.routes.js';
import { ApiKeyService } from './api-keys.service.js';

/**
 * The API-key check of the charge API, set on the root instance with the other request guards
 * (src/server/http/guards.ts). Answers the service, which the console's routes below then share, so a
 * revoked key stops working at once.
 */
export function registerApiKeyGuard(app: FastifyInstance, ctx: AppContext): ApiKeyService {
  const keys = new ApiKeyService(ctx.database.db);
  registerApiKeyAuth(app, ctx, keys);
  return keys;
}

/** The console's API keys, on the service the guard checks keys with. */
export function registerApiKeysModule(api: FastifyInstance, ctx: AppContext, keys: ApiKeyService): void {
  registerApiKeyRoutes(api, ctx, keys);
}
