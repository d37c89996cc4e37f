import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerApiKeyGuard } from '#server/modules/api-keys/api-keys.module.js';
import type { ApiKeyService } from '#server/modules/api-keys/api-keys.service.js';
import { registerAuditModule } from '#server/modules/audit/audit.module.js';
import { registerAuth } from '#server/modules/auth/auth.plugin.js';
import { registerStepUpCheck, type StepUpVerifier } from '#server/modules/two-factor/step-up.js';
import { registerStaffTwoFactorGate } from '#server/modules/two-factor/two-factor.routes.js';

/**
 * The checks every route passes, set on the root instance before any module's routes so each route
 * gets them, in this order: who is calling (session token), or which API key; staff two-factor;
 * the audit of staff actions; the second factor of sensitive changes (decision 0205). Answers the API key
 * service the api-keys module's console routes use, and the step-up check the two-factor module gives
 * its verifier to.
 */
export function registerRequestGuards(
  app: FastifyInstance,
  ctx: AppContext,
): { apiKeys: ApiKeyService; stepUp: { use(verify: StepUpVerifier): void } } {
  registerAuth(app, ctx);
  const apiKeys = registerApiKeyGuard(app, ctx);
  registerStaffTwoFactorGate(app, ctx);
  registerAuditModule(app, ctx);
  const stepUp = registerStepUpCheck(app);
  return { apiKeys, stepUp };
}
