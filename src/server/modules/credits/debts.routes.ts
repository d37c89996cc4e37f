import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/schemas/common.js';
import { adminOutstandingQuerySchema, adminOutstandingResponseSchema, myOutstandingResponseSchema } from '#shared/schemas/debts.js';
import type { AppContext } from '#server/context.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { flaggedAccounts, toDebtDto } from './debts.service.js';
import { listDebts } from './ledger.service.js';

/** The caller's outstanding amount, and the staff view of flagged accounts. */
export function registerDebtRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;

  api.get(
    '/credits/outstanding',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['credits'],
        summary: 'What my account owes after a reversed payment, and why',
        security: [{ bearer: [] }],
        response: { 200: myOutstandingResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const debts = await listDebts(db, requireUserId(request));
      return { outstandingCents: debts.reduce((sum, d) => sum + d.outstandingCents, 0), debts: debts.map(toDebtDto) };
    },
  );

  api.get(
    '/admin/credits/outstanding',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['operator console'],
        summary: 'Accounts flagged because they owe credits after a reversed payment',
        security: [{ bearer: [] }],
        querystring: adminOutstandingQuerySchema,
        response: { 200: adminOutstandingResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const accounts = await flaggedAccounts(db, request.query.userId);
      return { accounts, totalOutstandingCents: accounts.reduce((sum, a) => sum + a.outstandingCents, 0) };
    },
  );
}
