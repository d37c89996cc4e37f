import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerCreditRoutes } from './credits.routes.js';
import { registerDebtRoutes } from './debts.routes.js';
import { registerReceiptRoutes } from './receipts.routes.js';

/** Credits: the ledger history and staff adjustments, outstanding amounts, receipts and the CSV export. */
export function registerCreditsModule(api: FastifyInstance, ctx: AppContext): void {
  registerCreditRoutes(api, ctx);
  registerDebtRoutes(api, ctx);
  registerReceiptRoutes(api, ctx);
}
