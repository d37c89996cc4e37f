import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { DeskExtensions } from './desk-extensions.js';
import { registerTicketRoutes } from './tickets.routes.js';

/** Support tickets and the support desk (its routes build the service and the attachment store). */
export function registerTicketsModule(api: FastifyInstance, ctx: AppContext, desk: DeskExtensions = {}): void {
  registerTicketRoutes(api, ctx, desk);
}
