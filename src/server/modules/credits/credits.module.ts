import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerCreditRoutes } from './credits.routes.js';
import { registerDebtRoutes } from './debts.routes.js';

/** Credits: the ledger history, staff adjustments and outstanding amounts. */
export function registerCreditsModule(api: FastifyInstance, ctx: AppContext): void {
  registerCreditRoutes(api, ctx);
  registerDebtRoutes(api, ctx);
}
