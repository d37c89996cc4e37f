import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_KEY_FAMILY } from '#shared/schemas/charges.js';
import type { AppContext } from '#server/context.js';
import { unauthorized } from '#server/errors.js';
import { addRouteCheck } from '#server/plugins/route-checks.js';
import type { ApiKeyService } from './api-keys.service.js';
import type { ApiKeyRow } from './api-keys.tables.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of a charge API call (routes with `config.apiKey`). */
    apiKey: ApiKeyRow | null;
  }
  interface FastifyContextConfig {
    /** The route takes an API key (never a session token) in `Authorization: Bearer`. */
    apiKey?: boolean;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
}

/**
 * API-key routes (docs/decisions/0165) leave `config.auth` public so the session check skips them, and
 * set `config.apiKey`: this hook then takes only a live `olk_` key (a session token is a 401), counts
 * the call against the key's own per-minute limit (shared by every instance) and notes when the key was
 * last used.
 */
export function registerApiKeyAuth(app: FastifyInstance, ctx: AppContext, keys: ApiKeyService): void {
  app.decorateRequest('apiKey', null);
  async function check(request: FastifyRequest): Promise<void> {
    const token = bearerToken(request);
    if (!token) throw unauthorized('An API key is required: Authorization: Bearer olk_live_…', 'NO_API_KEY');
    if (!token.startsWith(API_KEY_FAMILY)) throw unauthorized('This endpoint takes an API key, not a session token', 'INVALID_API_KEY');
    const key = await keys.findActive(token);
    if (!key) throw unauthorized('Unknown or revoked API key', 'INVALID_API_KEY');
    request.apiKey = key;
    await ctx.rateLimiter.consume({ name: 'api-key', limit: key.rateLimitPerMinute, windowSeconds: 60 }, key.id);
    await keys.touch(key);
  }
  // Attached to the routes with `config.apiKey` only (other routes do not run it at all).
  app.addHook('onRoute', (route) => {
    if (!(route.config as { apiKey?: boolean } | undefined)?.apiKey) return;
    addRouteCheck(route, (request, _reply, done) => {
      check(request).then(() => done(), done);
    });
  });
}

/** The calling key on an API-key route (the hook guarantees it). */
export function requireApiKey(request: FastifyRequest): ApiKeyRow {
  if (!request.apiKey) throw unauthorized('An API key is required', 'NO_API_KEY');
  return request.apiKey;
}
