import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { AttachmentStore } from './attachments.js';
import type { DeskExtensions } from './desk-extensions.js';
import { registerStaffTicketRoutes } from './staff-tickets.routes.js';
import { registerTicketUploadRoutes } from './ticket-uploads.routes.js';
import { registerTicketRoutes } from './tickets.routes.js';
import { moveGuestTicketsToUser, TicketService } from './tickets.service.js';

/** Support tickets and the support desk: the service, its attachment store, the guest linker and the routes. */
export function registerTicketsModule(api: FastifyInstance, ctx: AppContext, desk: DeskExtensions = {}): void {
  // The last arguments queue events for the automation rules and filter the queue by SLA state (DeskExtensions).
  const service = new TicketService(
    ctx.database.db,
    ctx.webhookEvents,
    ctx.mail,
    new AttachmentStore(ctx.config.attachmentsDir),
    ctx.notifications,
    desk.ruleEvents,
    desk.slaCondition,
  );
  ctx.guestLinkers.push(moveGuestTicketsToUser);
  registerTicketRoutes(api, ctx, service);
  registerStaffTicketRoutes(api, ctx, service, desk);
  registerTicketUploadRoutes(api, ctx, service);
}
