import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import {
  claimGuestRewardsBodySchema,
  claimGuestRewardsResponseSchema,
  createExchangeBodySchema,
  createExchangeResponseSchema,
  estimateQuerySchema,
  estimateResponseSchema,
  exchangeCurrenciesResponseSchema,
  exchangeRangeQuerySchema,
  exchangeRangeResponseSchema,
  exchangeResponseSchema,
  guestRewardsStatusBodySchema,
  guestRewardsStatusResponseSchema,
  myExchangesQuerySchema,
  myExchangesResponseSchema,
} from '#shared/schemas/exchange.js';
import type { AppContext } from '#server/context.js';
import { forbidden, unauthorized } from '#server/errors.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { EXCHANGE_LIMITS, toExchangeDto, type ExchangeOwner, type ExchangeService } from './exchange.service.js';
import type { GuestClaimsService } from './guest-claims.service.js';

function ownerOf(request: FastifyRequest): ExchangeOwner {
  const auth = request.auth;
  if (auth?.isGuest && auth.guestId) return { kind: 'guest', guestId: auth.guestId };
  if (auth?.userId) return { kind: 'user', userId: auth.userId };
  throw unauthorized();
}

/** Exchange calls (ours to name, docs/product.md#api-conventions) and the guest reward calls of docs/product.md#api. */
export function registerExchangeRoutes(app: FastifyInstance, ctx: AppContext, service: ExchangeService, claims: GuestClaimsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['exchange'];
  const sessionSecurity: { [label: string]: string[] }[] = [{ bearer: [] }, { bearer: [], guestId: [] }];

  api.get(
    '/exchange/currencies',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Currencies that can be exchanged (payout addresses we can check)',
        response: { 200: exchangeCurrenciesResponseSchema, ...errorResponses },
      },
    },
    async () => ({ currencies: await service.listCurrencies() }),
  );

  api.get(
    '/exchange/estimate',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Estimate of an exchange (floating, or a fixed-rate quote with its rateId and expiry), its limits, USD value and reward',
        querystring: estimateQuerySchema,
        response: { 200: estimateResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.estimate(request.query.from, request.query.to, request.query.amount, request.query.rateType),
  );

  api.get(
    '/exchange/range',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: "A pair's minimum and maximum amounts at the provider, for a floating or a fixed rate",
        querystring: exchangeRangeQuerySchema,
        response: { 200: exchangeRangeResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.range(request.query.from, request.query.to, request.query.rateType),
  );

  api.post(
    '/exchange/exchanges',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'Create an exchange (guest or user); answers the deposit address and, for a guest, the claim code (shown once)',
        security: sessionSecurity,
        body: createExchangeBodySchema,
        response: { 201: createExchangeResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await ctx.rateLimiter.consume(EXCHANGE_LIMITS.createPerIp, request.ip);
      const { row, claimCode } = await service.create(ownerOf(request), request.body);
      const rewards = {
        potentialAmount: row.rewardCents / 100,
        percent: service.rewardPercent,
        mode: row.rewardMode,
        ...(claimCode && row.claimDeadline ? { claimCode, claimDeadline: row.claimDeadline.toISOString() } : {}),
      };
      return reply.status(201).send({ success: true as const, data: { exchange: toExchangeDto(row), rewards } });
    },
  );

  api.get(
    '/exchange/exchanges',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'My exchanges, newest first',
        security: sessionSecurity,
        querystring: myExchangesQuerySchema,
        response: { 200: myExchangesResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { rows, total } = await service.listMine(ownerOf(request), request.query);
      return { exchanges: rows.map(toExchangeDto), page: request.query.page, pageSize: request.query.pageSize, total };
    },
  );

  api.get(
    '/exchange/exchanges/:id',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'My exchange with its current status (404 for anyone else)',
        security: sessionSecurity,
        params: idParamsSchema,
        response: { 200: exchangeResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ exchange: toExchangeDto(await service.getOwn(ownerOf(request), request.params.id)) }),
  );

  api.post(
    '/exchange/guest-rewards-status',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Which locally kept guest claims are still valid, and their total (wrong codes are throttled)',
        body: guestRewardsStatusBodySchema,
        response: { 200: guestRewardsStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const userId = request.auth && !request.auth.isGuest ? request.auth.userId : null;
      const guestId = request.auth?.isGuest ? request.auth.guestId : null;
      const data = await claims.guestRewardsStatus(request.body.claims, { userId, guestId });
      return { success: true, data };
    },
  );

  api.post(
    '/exchange/claim-guest-rewards',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Redeem guest claims for the signed-in user (userId must be the caller)',
        security: [{ bearer: [] }],
        body: claimGuestRewardsBodySchema,
        response: { 200: claimGuestRewardsResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const userId = requireUserId(request);
      if (request.body.userId !== userId) throw forbidden('Rewards can only be claimed for your own account');
      const data = await claims.claimGuestRewards(userId, request.body.claims);
      return { success: true, data };
    },
  );
}
