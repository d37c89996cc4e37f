import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { registerAuthRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { registerEmailFlowRoutes } from './email-flows.routes.js';
import { EmailFlows } from './email-flows.service.js';

/**
 * Sign-up, sign-in, sessions and the e-mail flows. The session check itself (auth.plugin.ts) is a
 * request guard, set on the root before any module (src/server/http/guards.ts).
 */
export function registerAuthModule(api: FastifyInstance, ctx: AppContext, delivery: { mail: MailService }): AuthService {
  const emailFlows = new EmailFlows({ ...ctx, mail: delivery.mail, sessions: api.sessions, log: api.log });
  emailFlows.defineJobs();
  registerEmailFlowRoutes(api, ctx, emailFlows);
  const auth = new AuthService({
    config: ctx.config,
    database: ctx.database,
    sessions: api.sessions,
    rateLimiter: ctx.rateLimiter,
    guestLinkers: ctx.guestLinkers,
    selfUrl: ctx.selfUrl,
    emailFlows,
  });
  registerAuthRoutes(api, ctx, auth);
  return auth;
}
