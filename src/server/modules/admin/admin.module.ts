import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { ExchangeService } from '#server/modules/exchange/exchange.service.js';
import type { PaymentsService } from '#server/modules/payments/payments.service.js';
import { registerAdminMoneyRoutes } from './admin-money.routes.js';
import { AdminMoneyService } from './admin-money.service.js';
import { registerAdminRoutes } from './admin.routes.js';
import { AdminService } from './admin.service.js';

/** The operator console: accounts and the audit log, and payments and exchanges (through their services). */
export function registerAdminModule(
  api: FastifyInstance,
  ctx: AppContext,
  services: { payments: PaymentsService; exchange: ExchangeService },
): AdminService {
  const admin = new AdminService(ctx.database.db, api.sessions);
  registerAdminRoutes(api, ctx, admin);
  registerAdminMoneyRoutes(api, ctx, new AdminMoneyService(ctx.database.db, services));
  return admin;
}
