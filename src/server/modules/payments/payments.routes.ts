import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import {
  cryptosResponseSchema,
  depositBodySchema,
  depositResponseSchema,
  myPaymentsQuerySchema,
  myPaymentsResponseSchema,
  paymentCheckBodySchema,
  paymentCheckResponseSchema,
  paymentDetailResponseSchema,
  paymentStatusResponseSchema,
} from '#shared/schemas/payments.js';
import type { AppContext } from '#server/context.js';
import { AppError, unauthorized } from '#server/errors.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { getBalanceCents } from '#server/modules/credits/ledger.service.js';
import { verifyIpnSignature } from './ipn-signature.js';
import type { NowPaymentsPayment } from './nowpayments.client.js';
import { toPaymentDto, toStatusResponse, type PaymentsService } from './payments.service.js';

export function registerPaymentRoutes(app: FastifyInstance, ctx: AppContext, service: PaymentsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];
  const security = [{ bearer: [] }];

  api.get(
    '/payments/cryptos',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Currencies a top-up can be paid in, and the amount limits',
        response: { 200: cryptosResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      try {
        return { cryptos: await service.listCryptos(), limits: service.limits };
      } catch (err) {
        request.log.error({ err }, 'could not list NOWPayments currencies');
        throw new AppError('PAYMENT_PROVIDER_ERROR', 'The payment provider is not available right now. Please try again in a few minutes.');
      }
    },
  );

  api.post(
    '/payments/deposit',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Start a crypto top-up of `amount` USD paid in `crypto`',
        security,
        body: depositBodySchema,
        response: { 201: depositResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await service.createDeposit(requireUserId(request), request.body.crypto, request.body.amount);
      return reply.status(201).send({ success: true as const, payment: toPaymentDto(row) });
    },
  );

  api.get(
    '/payments/mine',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My payments, newest first',
        security,
        querystring: myPaymentsQuerySchema,
        response: { 200: myPaymentsResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { rows, total } = await service.listMine(requireUserId(request), request.query);
      return { payments: rows.map(toPaymentDto), page: request.query.page, pageSize: request.query.pageSize, total };
    },
  );

  api.post(
    '/payments/check',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Record my transaction hash and re-check the payment now',
        security,
        body: paymentCheckBodySchema,
        response: { 200: paymentCheckResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const row = await service.check(requireUserId(request), request.body.orderId, request.body.txHash);
      return { ...toStatusResponse(row), payment: toPaymentDto(row) };
    },
  );

  api.get(
    '/payments/:id/status',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Status of my payment',
        security,
        params: idParamsSchema,
        response: { 200: paymentStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => toStatusResponse(await service.getOwnStatus(requireUserId(request), request.params.id)),
  );

  api.get(
    '/payments/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My payment, with my balance now',
        security,
        params: idParamsSchema,
        response: { 200: paymentDetailResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const userId = requireUserId(request);
      const row = await service.getOwn(userId, request.params.id);
      const [balanceCents, receiptEntryId] = await Promise.all([getBalanceCents(ctx.database.db, userId), service.receiptEntryId(row)]);
      return { payment: toPaymentDto(row), balance: (balanceCents ?? 0) / 100, receiptEntryId };
    },
  );

  // NOWPayments calls this without authentication; the HMAC signature is the authentication.
  api.post(
    '/payments/ipn',
    {
      schema: {
        tags,
        summary: 'NOWPayments IPN receiver (signed with x-nowpayments-sig)',
        response: { 200: z.object({ ok: z.literal(true), status: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      const secret = ctx.config.nowpayments.ipnSecret;
      const signature = request.headers['x-nowpayments-sig'];
      const body = request.body;
      const valid =
        secret !== null &&
        body !== null &&
        typeof body === 'object' &&
        !Array.isArray(body) &&
        verifyIpnSignature(body, typeof signature === 'string' ? signature : undefined, secret);
      if (!valid) {
        request.log.warn({ ip: request.ip, hasSignature: typeof signature === 'string' }, 'IPN refused: bad signature');
        throw unauthorized('Invalid IPN signature', 'INVALID_SIGNATURE');
      }
      const outcome = await service.receiveIpn(body as NowPaymentsPayment);
      return { ok: true as const, status: outcome.status };
    },
  );
}
