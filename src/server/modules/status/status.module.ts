import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { StatusSubscriptions } from './status-subscriptions.js';
import { registerStatusRoutes } from './status.routes.js';
import { defaultProbes, StatusService } from './status.service.js';

export const STATUS_CHECK_JOB = 'status.check';

/**
 * The status page: its API, the periodic check (a pg-boss cron job, every minute, once across instances)
 * and one check as soon as the server listens, so a fresh start shows real states at once.
 */
export function registerStatusModule(api: FastifyInstance, ctx: AppContext, delivery: { mail: MailService }): StatusService {
  const subscriptions = new StatusSubscriptions(ctx.database.db, delivery.mail, ctx.config.jwtSecret);
  const service = new StatusService(ctx.database.db, defaultProbes(ctx), { subscriptions });
  const log = api.log;

  ctx.jobs.define({
    name: STATUS_CHECK_JOB,
    cron: '* * * * *',
    // A check takes at most a few seconds; a lost one is simply replaced by the next minute's.
    retryLimit: 0,
    expireInSeconds: 60,
    handler: async () => {
      const results = await service.runChecks();
      const unhealthy = results.filter((r) => r.state !== 'up');
      if (unhealthy.length > 0) log.warn({ unhealthy }, 'status check found unhealthy components');
    },
  });

  let startupCheck: Promise<unknown> | null = null;
  api.addHook('onListen', async () => {
    startupCheck = service.runChecks().catch((err: unknown) => log.warn({ err }, 'startup status check failed'));
  });
  // Let a check in flight finish before the database closes.
  api.addHook('preClose', async () => {
    await startupCheck;
  });

  registerStatusRoutes(api, ctx, service, subscriptions);
  return service;
}
