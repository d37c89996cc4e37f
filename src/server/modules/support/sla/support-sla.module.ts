import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { SLA_BREACH_JOB, recordSlaBreaches } from './breach-job.js';
import { registerSupportSlaRoutes } from './support-sla.routes.js';
import { SupportSlaService } from './support-sla.service.js';

/**
 * SLA targets of the support desk in business hours (docs/decisions/0293): the admin API for the
 * calendar, holidays and targets, and the every-minute job that records breaches and tells staff.
 * The state per ticket (sla-state.ts) is added to the staff queue by the tickets routes.
 */
export function registerSupportSlaModule(api: FastifyInstance, ctx: AppContext): SupportSlaService {
  const service = new SupportSlaService({ db: ctx.database.db });
  ctx.jobs.define({
    name: SLA_BREACH_JOB,
    cron: '* * * * *',
    expireInSeconds: 120,
    retryLimit: 0,
    handler: async () => {
      await recordSlaBreaches(ctx.database, ctx.notifications);
    },
  });
  registerSupportSlaRoutes(api, service);
  return service;
}
