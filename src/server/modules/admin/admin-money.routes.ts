import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminExchangeListQuerySchema, adminOwnerSchema, adminPaymentListQuerySchema, paymentEventSchema } from '#shared/schemas/admin.js';
import { errorResponses, idParamsSchema, pageShape } from '#shared/schemas/common.js';
import { exchangeSchema } from '#shared/schemas/exchange.js';
import { paymentSchema } from '#shared/schemas/payments.js';
import type { AppContext } from '#server/context.js';
import type { AdminMoneyService } from './admin-money.service.js';

/** Operator console: payments and exchanges with filters, the provider's data, history and a re-check. */
export function registerAdminMoneyRoutes(app: FastifyInstance, ctx: AppContext, service: AdminMoneyService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['operator console'];
  const security = [{ bearer: [] }];
  const staff = { auth: 'staff' } as const;
  // A re-check writes its own audit entry with the status before and after.
  const staffChange = { auth: 'staff', audited: true } as const;

  const adminPayment = paymentSchema.extend({ owner: adminOwnerSchema, providerData: z.record(z.string(), z.unknown()).nullable() });
  const adminExchange = exchangeSchema.extend({ owner: adminOwnerSchema, providerData: z.record(z.string(), z.unknown()).nullable() });

  api.get(
    '/admin/payments',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Payments, filtered by status, currency, day and user',
        security,
        querystring: adminPaymentListQuerySchema,
        response: { 200: z.object({ payments: z.array(adminPayment), ...pageShape }), ...errorResponses },
      },
    },
    async (request) => service.listPayments(request.query),
  );

  const paymentDetailSchema = z.object({ payment: adminPayment, events: z.array(paymentEventSchema) });

  api.get(
    '/admin/payments/:id',
    {
      config: staff,
      schema: {
        tags,
        summary: 'A payment with the provider data and its IPN history',
        security,
        params: idParamsSchema,
        response: { 200: paymentDetailSchema, ...errorResponses },
      },
    },
    async (request) => service.paymentDetail(request.params.id),
  );

  api.post(
    '/admin/payments/:id/recheck',
    {
      config: staffChange,
      schema: {
        tags,
        summary: 'Ask the provider about this payment now (credits once if it finished)',
        security,
        params: idParamsSchema,
        response: { 200: paymentDetailSchema, ...errorResponses },
      },
    },
    async (request) => service.recheckPayment(request.params.id, request.auth!.userId!),
  );

  api.get(
    '/admin/exchanges',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Exchanges, filtered by status, currency, day and user',
        security,
        querystring: adminExchangeListQuerySchema,
        response: { 200: z.object({ exchanges: z.array(adminExchange), ...pageShape }), ...errorResponses },
      },
    },
    async (request) => service.listExchanges(request.query),
  );

  api.get(
    '/admin/exchanges/:id',
    {
      config: staff,
      schema: {
        tags,
        summary: 'An exchange with the provider data',
        security,
        params: idParamsSchema,
        response: { 200: z.object({ exchange: adminExchange }), ...errorResponses },
      },
    },
    async (request) => service.exchangeDetail(request.params.id),
  );

  api.post(
    '/admin/exchanges/:id/recheck',
    {
      config: staffChange,
      schema: {
        tags,
        summary: 'Ask the swap provider about this exchange now',
        security,
        params: idParamsSchema,
        response: { 200: z.object({ exchange: adminExchange }), ...errorResponses },
      },
    },
    async (request) => service.recheckExchange(request.params.id, request.auth!.userId!),
  );
}
