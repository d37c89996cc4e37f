import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminOrderListQuerySchema,
  adminOrderListResponseSchema,
  adminOrderResponseSchema,
  catalogueItemResponseSchema,
  catalogueResponseSchema,
  createCatalogueItemBodySchema,
  createOrderBodySchema,
  idempotencyKeyHeadersSchema,
  orderListQuerySchema,
  orderListResponseSchema,
  orderResponseSchema,
  purchaseResponseSchema,
  updateCatalogueItemBodySchema,
} from '#shared/schemas/catalogue.js';
import { REFUND_STEP_UP_CENTS } from '#shared/constants.js';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import { stepUpBodySchema } from '#shared/schemas/two-factor.js';
import type { AppContext } from '#server/context.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import type { CatalogueService } from './catalogue.service.js';

const PURCHASE_LIMIT: RateLimitRule = { name: 'orders:create', limit: 120, windowSeconds: 10 * 60 };

/**
 * The catalogue (anyone reads the active items; admins keep it) and orders (users buy with credits;
 * staff fulfil, admins refund). Staff changes record their own audit entry in their transaction.
 */
export function registerCatalogueRoutes(app: FastifyInstance, ctx: AppContext, service: CatalogueService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const security = [{ bearer: [] }];

  api.get(
    '/catalogue',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['catalogue'],
        summary: 'What credits buy: the active items (sold-out ones show stock 0)',
        response: { 200: catalogueResponseSchema, ...errorResponses },
      },
    },
    async () => ({ items: await service.listActive() }),
  );

  const tags = ['orders'];
  api.post(
    '/orders',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Buy one item with credits',
        description:
          'Send an `Idempotency-Key` header (8-100 letters, digits, `-` or `_`), new for each purchase the person means. ' +
          'The same key for the same item answers the first order again (200) without buying twice; the same key for another item is a 409. ' +
          'A new purchase answers 201. Not enough credits: 422 `INSUFFICIENT_CREDITS` with `details.shortfallCents`. ' +
          'A hidden or unknown item: 404; a sold-out one: 409 `OUT_OF_STOCK`. ' +
          'Send `expectedPriceCents`, the price the person confirmed: when the item costs anything else now, the answer is 409 `PRICE_CHANGED` ' +
          'with the current price in `details.priceCents`, nothing is charged and the same key can be sent again with the new price.',
        security,
        headers: idempotencyKeyHeadersSchema,
        body: createOrderBodySchema,
        response: { 200: purchaseResponseSchema, 201: purchaseResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const userId = request.auth!.userId!;
      await ctx.rateLimiter.consume(PURCHASE_LIMIT, userId);
      const result = await service.purchase(userId, request.body, request.headers['idempotency-key']);
      return reply.status(result.replayed ? 200 : 201).send({ order: result.order, balanceCents: result.balanceCents });
    },
  );

  api.get(
    '/orders',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My orders, newest first',
        security,
        querystring: orderListQuerySchema,
        response: { 200: orderListResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.listMine(request.auth!.userId!, request.query),
  );

  api.get(
    '/orders/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'One of my orders',
        security,
        params: idParamsSchema,
        response: { 200: orderResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ order: await service.getMine(request.auth!.userId!, request.params.id) }),
  );

  const staffTags = ['operator console'];
  const staff = { auth: 'staff', audited: true } as const;
  const admin = { auth: 'admin', audited: true } as const;

  api.get(
    '/admin/catalogue',
    {
      config: { auth: 'staff' },
      schema: {
        tags: staffTags,
        summary: 'Every catalogue item, hidden ones too',
        security,
        response: { 200: catalogueResponseSchema, ...errorResponses },
      },
    },
    async () => ({ items: await service.listAllItems() }),
  );

  api.post(
    '/admin/catalogue',
    {
      config: admin,
      schema: {
        tags: staffTags,
        summary: 'Add a catalogue item',
        security,
        body: createCatalogueItemBodySchema,
        response: { 201: catalogueItemResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send({ item: await service.createItem(request.auth!.userId!, request.body) }),
  );

  api.put(
    '/admin/catalogue/:id',
    {
      config: admin,
      schema: {
        tags: staffTags,
        summary: 'Change a catalogue item (hide it with active: false)',
        security,
        params: idParamsSchema,
        body: updateCatalogueItemBodySchema,
        response: { 200: catalogueItemResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ item: await service.updateItem(request.auth!.userId!, request.params.id, request.body) }),
  );

  api.get(
    '/admin/orders',
    {
      config: { auth: 'staff' },
      schema: {
        tags: staffTags,
        summary: 'Orders, newest first, by status',
        security,
        querystring: adminOrderListQuerySchema,
        response: { 200: adminOrderListResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.listAllOrders(request.query),
  );

  api.post(
    '/admin/orders/:id/fulfil',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Mark a paid order fulfilled',
        security,
        params: idParamsSchema,
        response: { 200: adminOrderResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ order: await service.fulfil(request.auth!.userId!, request.params.id) }),
  );

  api.post(
    '/admin/orders/:id/refund',
    {
      // A large refund moves real money: the admin's second factor from REFUND_STEP_UP_CENTS up (docs/security.md#staff-powers).
      config: {
        ...admin,
        stepUp: async (request) => (await service.orderPriceCents((request.params as { id: string }).id)) >= REFUND_STEP_UP_CENTS,
      },
      schema: {
        tags: staffTags,
        summary: `Refund an order: credits back, stock restored, once (from ${REFUND_STEP_UP_CENTS / 100} credits, the admin's second factor in the body)`,
        security,
        params: idParamsSchema,
        body: stepUpBodySchema,
        response: { 200: adminOrderResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ order: await service.refund(request.auth!.userId!, request.params.id) }),
  );
}
