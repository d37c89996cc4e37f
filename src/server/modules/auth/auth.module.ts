import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerAuthRoutes } from './auth.routes.js';
import type { AuthService } from './auth.service.js';

/**
 * Sign-up, sign-in, sessions and the e-mail flows (its routes build the services). The session check
 * itself (auth.plugin.ts) is a request guard, set on the root before any module (src/server/http/guards.ts).
 */
export function registerAuthModule(api: FastifyInstance, ctx: AppContext): AuthService {
  return registerAuthRoutes(api, ctx);
}
