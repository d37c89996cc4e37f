import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADJUSTMENT_APPROVAL_CENTS } from '#shared/constants.js';
import { toCents } from '#shared/fees.js';
import {
  adjustmentRequestListQuerySchema,
  adjustmentRequestListResponseSchema,
  adjustmentRequestResponseSchema,
  creditAdjustmentBodySchema,
  decodeLedgerCursor,
  ledgerEntrySchema,
  ledgerHistoryQuerySchema,
  ledgerHistoryResponseSchema,
  rejectAdjustmentBodySchema,
} from '#shared/schemas/credits.js';
import { errorResponses, uuidParamsSchema } from '#shared/schemas/common.js';
import { stepUpBodySchema } from '#shared/schemas/two-factor.js';
import type { AppContext } from '#server/context.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import {
  adjustBalance,
  approveAdjustment,
  listAdjustmentRequests,
  needsSecondAdmin,
  rejectAdjustment,
  requestAdjustment,
} from './adjustments.service.js';
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
        summary: 'My credit ledger entries, newest first: by page, or from the nextCursor of the previous answer (docs/decisions/0333)',
        security,
        querystring: ledgerHistoryQuerySchema,
        response: { 200: ledgerHistoryResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const userId = requireUserId(request);
      const { page, pageSize } = request.query;
      // Validated by the schema: a cursor that does not decode was answered 400 already.
      const cursor = request.query.cursor ? (decodeLedgerCursor(request.query.cursor) ?? undefined) : undefined;
      const { rows, total, nextCursor } = await listLedgerEntries(ctx.database.db, userId, { page, pageSize, cursor });
      const balanceCents = (await getBalanceCents(ctx.database.db, userId)) ?? 0;
      return { entries: rows.map(toLedgerEntryDto), balanceCents, page, pageSize, total, nextCursor };
    },
  );

  api.post(
    '/admin/credits/adjustments',
    {
      // Moves money: the admin's second factor (docs/security.md#staff-powers).
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags,
        summary: `Adjust a balance (admin): an internal reason for staff, an optional note for the customer. From ${ADJUSTMENT_APPROVAL_CENTS / 100} credits either way it waits for a second admin (202 with the request)`,
        security,
        body: creditAdjustmentBodySchema,
        response: {
          201: z.object({ entry: ledgerEntrySchema, balanceBeforeCents: z.number().int(), balanceCents: z.number(), created: z.boolean() }),
          202: adjustmentRequestResponseSchema.extend({ created: z.boolean() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { userId, amount, reason, customerNote, expectedBalanceCents, idempotencyKey } = request.body;
      const actorId = request.auth!.userId!;
      const input = { userId, amountCents: toCents(amount), reason, customerNote, expectedBalanceCents, idempotencyKey, actorId };
      if (needsSecondAdmin(input.amountCents)) {
        const { request: pending, created } = await requestAdjustment(ctx.database.db, input);
        return reply.status(202).send({ request: pending, created });
      }
      const result = await adjustBalance(ctx.database.db, input, ctx.events);
      request.log.info({ userId, amountCents: result.entry.amountCents, actorId: request.auth!.userId }, 'credits adjusted by staff');
      return reply.status(201).send({
        entry: toLedgerEntryDto(result.entry),
        balanceBeforeCents: result.balanceBeforeCents,
        balanceCents: result.balanceCents,
        created: result.created,
      });
    },
  );

  api.get(
    '/admin/credits/adjustment-requests',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary: 'Large balance adjustments waiting for (or decided by) a second admin, newest first',
        security,
        querystring: adjustmentRequestListQuerySchema,
        response: { 200: adjustmentRequestListResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ requests: await listAdjustmentRequests(ctx.database.db, request.query) }),
  );

  api.post(
    '/admin/credits/adjustment-requests/:id/approve',
    {
      // Posts the adjustment: a second admin, with their own second factor (docs/security.md#staff-powers).
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags,
        summary: "Approve another admin's adjustment request: it is posted now (four eyes; the approver's second factor in the body)",
        security,
        params: uuidParamsSchema('Unknown adjustment request'),
        body: stepUpBodySchema,
        response: { 200: adjustmentRequestResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ request: await approveAdjustment(ctx.database.db, request.params.id, request.auth!.userId!, ctx.events) }),
  );

  api.post(
    '/admin/credits/adjustment-requests/:id/reject',
    {
      config: { auth: 'admin', audited: true },
      schema: {
        tags,
        summary: 'Reject (or, by the admin who asked, withdraw) an adjustment request; nothing is posted',
        security,
        params: uuidParamsSchema('Unknown adjustment request'),
        body: rejectAdjustmentBodySchema,
        response: { 200: adjustmentRequestResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ request: await rejectAdjustment(ctx.database.db, request.params.id, request.auth!.userId!, request.body.note) }),
  );
}
