import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerMailRoutes } from './mail.routes.js';

/**
 * Mail: the outbox's delivery jobs, closing the transport with the app, and the routes (notification
 * settings, unsubscribe, the staff outbox). The `MailService` itself is shared: the core builds it into
 * the context, where every module that sends mail finds it (`ctx.mail`).
 */
export function registerMailModule(api: FastifyInstance, ctx: AppContext): void {
  ctx.mail.defineJobs();
  api.addHook('onClose', async () => {
    ctx.mail.close();
  });
  registerMailRoutes(api, ctx);
}
