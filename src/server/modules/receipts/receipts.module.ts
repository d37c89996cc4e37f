import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerReceiptRoutes } from './receipts.routes.js';

/**
 * Receipts of my ledger entries and the CSV export of my ledger: a read view over the credits ledger
 * and the payments and charges behind its entries, so it stands above all three (docs/decisions/0221).
 */
export function registerReceiptsModule(api: FastifyInstance, ctx: AppContext): void {
  registerReceiptRoutes(api, ctx);
}
