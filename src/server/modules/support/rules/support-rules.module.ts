import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerSupportRulesRoutes } from './support-rules.routes.js';
import {
  AUTO_CLOSE_JOB,
  NO_REPLY_SWEEP_JOB,
  RULE_EVENT_JOB,
  ruleEventSink,
  SupportRulesService,
  type RuleEvent,
} from './support-rules.service.js';

/**
 * Ticket tags, the support desk's automation rules and auto-close of resolved tickets
 * (docs/decisions/0294, docs/support-rules.md). Rule events come from the ticket service as jobs
 * queued in the change's transaction; the no-reply trigger and auto-close run from cron sweeps.
 */
export function registerSupportRulesModule(api: FastifyInstance, ctx: AppContext): SupportRulesService {
  const service = new SupportRulesService({
    db: ctx.database.db,
    webhookEvents: ctx.webhookEvents,
    mail: ctx.mail,
    notifications: ctx.notifications,
    events: ruleEventSink(ctx.jobs),
    log: api.log,
  });
  ctx.jobs.define<RuleEvent>({
    name: RULE_EVENT_JOB,
    handler: async (event) => {
      await service.runEvent(event);
    },
  });
  // Cron ticks are sent once per minute across all instances; the run rows make a repeat harmless.
  ctx.jobs.define({ name: NO_REPLY_SWEEP_JOB, cron: '* * * * *', retryLimit: 0, handler: async () => void (await service.sweepNoReply()) });
  ctx.jobs.define({ name: AUTO_CLOSE_JOB, cron: '*/5 * * * *', retryLimit: 0, handler: async () => void (await service.autoClose()) });
  registerSupportRulesRoutes(api, service);
  return service;
}
