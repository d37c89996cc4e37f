import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { mailSubscriber } from './mail-subscriber.js';
import type { MailService } from './mail.service.js';
import { registerMailRoutes } from './mail.routes.js';

/**
 * Mail: the outbox's delivery jobs, closing the transport with the app, and the routes (notification
 * settings, unsubscribe, the staff outbox), and the mail of each domain event that has one. The
 * `MailService` is built by the core; app.ts hands it to the few modules that mail directly (decision 0322).
 */
export function registerMailModule(api: FastifyInstance, ctx: AppContext, mail: MailService): void {
  mail.defineJobs();
  // The events that have a mail of their own (mail-subscriber.ts).
  ctx.events.subscribe(mailSubscriber(mail));
  api.addHook('onClose', async () => {
    mail.close();
  });
  registerMailRoutes(api, ctx, mail);
}
