import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { AuthService } from '#server/modules/auth/auth.service.js';
import type { StepUpVerifier } from './step-up.js';
import { registerTwoFactor } from './two-factor.routes.js';

/**
 * Two-factor sign-in: authenticator app, passkeys and recovery codes, as the second step of the auth
 * module's login. The staff two-factor gate is a request guard (src/server/http/guards.ts).
 */
export function registerTwoFactorModule(
  api: FastifyInstance,
  ctx: AppContext,
  auth: AuthService,
  stepUp: { use(verify: StepUpVerifier): void },
): void {
  registerTwoFactor(api, ctx, auth, stepUp);
}
