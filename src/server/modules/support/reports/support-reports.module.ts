import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerSupportReportRoutes } from './support-reports.routes.js';

/** Support desk reports for staff (docs/decisions/0295). */
export function registerSupportReportsModule(api: FastifyInstance, ctx: AppContext): void {
  registerSupportReportRoutes(api, ctx);
}
