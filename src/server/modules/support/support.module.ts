import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { registerHelpRoutes } from './help/help.routes.js';
import { HelpService } from './help/help.service.js';
import { registerSupportReportRoutes } from './reports/support-reports.routes.js';
import { registerSupportRulesRoutes } from './rules/support-rules.routes.js';
import {
  AUTO_CLOSE_JOB,
  NO_REPLY_SWEEP_JOB,
  RULE_EVENT_JOB,
  ruleEventSink,
  SupportRulesService,
  type RuleEvent,
} from './rules/support-rules.service.js';
import { SLA_BREACH_JOB, recordSlaBreaches } from './sla/breach-job.js';
import { slaQueueCondition, withSla } from './sla/sla-state.js';
import { registerSupportSlaRoutes } from './sla/support-sla.routes.js';
import { SupportSlaService } from './sla/support-sla.service.js';
import { AttachmentStore } from './tickets/attachments.js';
import type { DeskExtensions } from './tickets/desk-extensions.js';
import { registerStaffTicketRoutes } from './tickets/staff-tickets.routes.js';
import { registerTicketUploadRoutes } from './tickets/ticket-uploads.routes.js';
import { registerTicketRoutes } from './tickets/tickets.routes.js';
import { moveGuestTicketsToUser, TicketService } from './tickets/tickets.service.js';

/**
 * The support desk (docs/decisions/0323): tickets, the automation rules, SLA targets in business
 * hours, the reports and the help centre, with their services, jobs and routes. The parts built on
 * tickets are handed to the ticket service here (DeskExtensions), so tickets/ imports neither rules/
 * nor sla/, which import it.
 */
export function registerSupportModule(api: FastifyInstance, ctx: AppContext, delivery: { notifications: NotificationsService }): void {
  // Ticket events queue rule jobs in the change's transaction (docs/decisions/0294).
  const ruleEvents = ruleEventSink(ctx.jobs);
  // What the rules and the SLA clock add to the desk (docs/decisions/0293, 0294).
  const desk: DeskExtensions = { ruleEvents, withSla, slaCondition: slaQueueCondition };

  // Tickets: the service, its attachment store, the guest linker and the routes.
  const tickets = new TicketService(
    ctx.database.db,
    ctx.events,
    new AttachmentStore(ctx.config.attachmentsDir),
    desk.ruleEvents,
    desk.slaCondition,
  );
  ctx.guestLinkers.push(moveGuestTicketsToUser);
  registerTicketRoutes(api, ctx, tickets);
  registerStaffTicketRoutes(api, ctx, tickets, desk);
  registerTicketUploadRoutes(api, ctx, tickets);

  // Tags, automation rules and auto-close (docs/support-rules.md). The no-reply trigger and
  // auto-close run from cron sweeps, sent once per minute across all instances; the run rows make a
  // repeat harmless.
  const rules = new SupportRulesService({
    db: ctx.database.db,
    events: ctx.events,
    notifications: delivery.notifications,
    ruleEvents,
    log: api.log,
  });
  ctx.jobs.define<RuleEvent>({
    name: RULE_EVENT_JOB,
    handler: async (event) => {
      await rules.runEvent(event);
    },
  });
  ctx.jobs.define({ name: NO_REPLY_SWEEP_JOB, cron: '* * * * *', retryLimit: 0, handler: async () => void (await rules.sweepNoReply()) });
  ctx.jobs.define({ name: AUTO_CLOSE_JOB, cron: '*/5 * * * *', retryLimit: 0, handler: async () => void (await rules.autoClose()) });
  registerSupportRulesRoutes(api, rules);

  // The help centre: articles, search, votes and ticket suggestions (docs/decisions/0290).
  const help = new HelpService({ db: ctx.database.db });
  registerHelpRoutes(api, ctx, help);

  // SLA targets: the admin API for the calendar, holidays and targets, and the every-minute job that
  // records breaches and tells staff.
  const sla = new SupportSlaService({ db: ctx.database.db });
  ctx.jobs.define({
    name: SLA_BREACH_JOB,
    cron: '* * * * *',
    expireInSeconds: 120,
    retryLimit: 0,
    handler: async () => {
      await recordSlaBreaches(ctx.database, delivery.notifications);
    },
  });
  registerSupportSlaRoutes(api, sla);

  // Reports for staff (docs/decisions/0295).
  registerSupportReportRoutes(api, ctx);
}
