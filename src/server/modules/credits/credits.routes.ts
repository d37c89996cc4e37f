import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toCents } from '#shared/fees.js';
import { creditAdjustmentBodySchema, ledgerEntrySchema, ledgerHistoryResponseSchema } from '#shared/schemas/credits.js';
import { errorResponses, paginationQuerySchema } from '#shared/schemas/common.js';
import type { AppContext } from '#server/context.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { adjustBalance } from './adjustments.service.js';
import { getBalanceCents, listLedgerEntries, toLedgerEntryDto } from './ledger.service.js';

export function registerCreditRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['credits'];
  const security = [{ bearer: [] }];

  api.get(
    '/credits/history',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My credit ledger entries, newest first',
        security,
        querystring: paginationQuerySchema,
        response: { 200: ledgerHistoryResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const userId = requireUserId(request);
      const { page, pageSize } = request.query;
      const { rows, total } = await listLedgerEntries(ctx.database.db, userId, { page, pageSize });
      const balanceCents = (await getBalanceCents(ctx.database.db, userId)) ?? 0;
      return { entries: rows.map(toLedgerEntryDto), balanceCents, page, pageSize, total };
    },
  );

  api.post(
    '/admin/credits/adjustments',
    {
      config: { auth: 'admin', audited: true },
      schema: {
        tags,
        summary: 'Adjust a balance (admin): an internal reason for staff, an optional note for the customer',
        security,
        body: creditAdjustmentBodySchema,
        response: {
          201: z.object({ entry: ledgerEntrySchema, balanceBeforeCents: z.number().int(), balanceCents: z.number(), created: z.boolean() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { userId, amount, reason, customerNote, expectedBalanceCents, idempotencyKey } = request.body;
      const actorId = request.auth!.userId!;
      const result = await adjustBalance(
        ctx.database.db,
        { userId, amountCents: toCents(amount), reason, customerNote, expectedBalanceCents, idempotencyKey, actorId },
        ctx.webhookEvents,
      );
      request.log.info({ userId, amountCents: result.entry.amountCents, actorId: request.auth!.userId }, 'credits adjusted by staff');
      return reply.status(201).send({
        entry: toLedgerEntryDto(result.entry),
        balanceBeforeCents: result.balanceBeforeCents,
        balanceCents: result.balanceCents,
        created: result.created,
      });
    },
  );
}
