import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { AuthService } from '#server/modules/auth/auth.service.js';
import { registerUserRoutes } from './users.routes.js';

/** The account's own settings: credits, onboarding, password change (through the auth service). */
export function registerUsersModule(api: FastifyInstance, ctx: AppContext, auth: AuthService): void {
  registerUserRoutes(api, ctx, auth);
}
