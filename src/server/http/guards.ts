import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerApiKeys } from '#server/modules/api-keys/api-keys.routes.js';
import type { ApiKeyService } from '#server/modules/api-keys/api-keys.service.js';
import { registerStaffAuditHook } from '#server/modules/audit/staff-audit.hook.js';
import { registerAuth } from '#server/modules/auth/auth.plugin.js';
import { registerStaffTwoFactorGate } from '#server/modules/two-factor/two-factor.routes.js';

/**
 * The checks every route passes, set on the root instance before any module's routes so each route
 * gets them, in this order: who is calling (session token), or which API key; staff two-factor;
 * the audit of staff actions. Answers the API key service the api-keys module's console routes use.
 */
export function registerRequestGuards(app: FastifyInstance, ctx: AppContext): { apiKeys: ApiKeyService } {
  registerAuth(app, ctx);
  const apiKeys = registerApiKeys(app, ctx);
  registerStaffTwoFactorGate(app, ctx);
  registerStaffAuditHook(app, ctx);
  return { apiKeys };
}
