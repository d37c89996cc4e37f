import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { formatCredits, toCents } from '#shared/fees.js';
import { creditAdjustmentBodySchema, DEFAULT_ADJUSTMENT_NOTE, ledgerEntrySchema, ledgerHistoryResponseSchema } from '#shared/schemas/credits.js';
import { errorResponses, paginationQuerySchema } from '#shared/schemas/common.js';
import type { AppContext } from '#server/context.js';
import { AppError, notFound } from '#server/errors.js';
import { users } from '#server/modules/users/users.tables.js';
import { creditLedgerEntries } from './credits.tables.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { getBalanceCents, listLedgerEntries, postLedgerEntry, toLedgerEntryDto } from './ledger.service.js';

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
      const reference = `adjustment:${idempotencyKey ?? randomUUID()}`;
      // The entry and its audit record commit together; the internal reason never reaches the customer
      // (docs/decisions/0235): the entry's description is the customer's note, the reason stays in the
      // entry's metadata (console only) and the audit log.
      const result = await ctx.database.db.transaction(async (tx) => {
        const [target] = await tx.select({ creditsCents: users.creditsCents }).from(users).where(eq(users.id, userId)).for('update');
        if (!target) throw notFound('User not found');
        const repeat = await tx.select({ id: creditLedgerEntries.id }).from(creditLedgerEntries).where(eq(creditLedgerEntries.reference, reference)).limit(1);
        if (repeat.length === 0 && expectedBalanceCents !== undefined && expectedBalanceCents !== target.creditsCents) {
          throw new AppError(409, 'BALANCE_CHANGED', `The balance changed to ${formatCredits(target.creditsCents)} credits since you looked. Check the new figures and confirm again.`, {
            details: { balanceCents: target.creditsCents },
          });
        }
        const posted = await postLedgerEntry(tx, {
          userId,
          amountCents: toCents(amount),
          kind: 'adjustment',
          reference,
          description: customerNote || DEFAULT_ADJUSTMENT_NOTE,
          actorId,
          metadata: { internalReason: reason },
        }, ctx.webhookEvents);
        const balanceBeforeCents = posted.entry.balanceAfterCents - posted.entry.amountCents;
        if (posted.created) {
          const actor = await findUserById(tx, actorId);
          await recordAudit(tx, {
            actor: { id: actorId, username: actor?.username ?? 'unknown' },
            action: 'credits.adjusted',
            targetType: 'user',
            targetId: userId,
            before: { balanceCents: balanceBeforeCents },
            after: {
              balanceCents: posted.balanceCents,
              amountCents: posted.entry.amountCents,
              entryId: posted.entry.id,
              settledCents: posted.settledCents,
              customerNote: posted.entry.description,
            },
            reason,
          });
        }
        return { ...posted, balanceBeforeCents };
      });
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
