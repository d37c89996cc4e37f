import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerChargeRoutes } from './charges.routes.js';
import { ChargeService } from './charges.service.js';

/** The charge API: debits by API key, with idempotency (docs/decisions/0165). */
export function registerChargesModule(api: FastifyInstance, ctx: AppContext): ChargeService {
  const charges = new ChargeService(ctx.database.db, ctx.events);
  registerChargeRoutes(api, ctx, charges);
  return charges;
}
