import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import { ledgerExportQuerySchema, receiptSchema } from '#shared/schemas/credits.js';
import type { AppContext } from '#server/context.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { exportLedgerCsv, getReceipt } from './receipts.service.js';

/** Receipts of my ledger entries and the CSV export of my ledger (docs/product.md#receipts). Owner only. */
export function registerReceiptRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['credits'];
  const security = [{ bearer: [] }];

  api.get(
    '/credits/ledger/:id/receipt',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'The receipt of one of my ledger entries (404 for anyone else)',
        security,
        params: idParamsSchema,
        response: { 200: z.object({ receipt: receiptSchema }), ...errorResponses },
      },
    },
    async (request) => ({ receipt: await getReceipt(ctx.database.db, requireUserId(request), request.params.id) }),
  );

  api.get(
    '/credits/ledger.csv',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My ledger from one day to another (both included, UTC) as CSV',
        description:
          'Columns: date, entry_id, kind, description, amount, balance_after, reference (amounts in credits). ' +
          'Text cells that a spreadsheet would read as a formula start with an apostrophe. Answered as an attachment.',
        security,
        querystring: ledgerExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const csv = await exportLedgerCsv(ctx.database.db, requireUserId(request), from, to);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="olympus-ledger-${from}-to-${to}.csv"`)
        .header('cache-control', 'no-store')
        .serializer((payload: unknown) => String(payload))
        .send(csv);
    },
  );
}
