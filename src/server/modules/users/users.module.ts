import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerUserRoutes, type PasswordChanger } from './users.routes.js';

/** The account's own settings: credits, onboarding, password change (through the auth service). */
export function registerUsersModule(api: FastifyInstance, ctx: AppContext, auth: PasswordChanger): void {
  registerUserRoutes(api, ctx, auth);
}
