import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { chargeHeadersSchema, chargeOnlyResponseSchema, chargeResponseSchema, createChargeBodySchema } from '#shared/schemas/charges.js';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import type { AppContext } from '#server/context.js';
import { requireApiKey } from '#server/modules/api-keys/api-key-auth.js';
import { toChargeDto, type ChargeService } from './charges.service.js';

/**
 * The charge API (docs/decisions/0165): `Authorization: Bearer olk_live_…` (an API key from the
 * console), never a session token. `auth: 'public'` keeps the session check off these routes; the
 * API-key check (`config.apiKey`) runs instead.
 */
export function registerChargeRoutes(app: FastifyInstance, ctx: AppContext, charges: ChargeService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['charge API'];
  const security = [{ apiKey: [] }];
  const config = { auth: 'public' as const, apiKey: true };

  api.post(
    '/v1/charges',
    {
      config,
      schema: {
        tags,
        summary: "Charge a user's credits",
        description:
          "Takes `amountCents` from the user's balance as one `spend` ledger entry (reference `charge:<id>`). " +
          'The `Idempotency-Key` header is required and scoped to the API key: the same key with the same body answers ' +
          'the first result again (201, header `Idempotent-Replayed: true`, the balance right after that charge); with ' +
          'another body a 409 `IDEMPOTENCY_KEY_REUSED`. Not enough credits: 422 `INSUFFICIENT_CREDITS` with ' +
          "`details.shortfallCents`. Unknown user: 404. Over the key's per-minute limit: 429 with Retry-After.",
        security,
        headers: chargeHeadersSchema,
        body: createChargeBodySchema,
        response: { 201: chargeResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const key = requireApiKey(request);
      const result = await charges.create(key.id, request.headers['idempotency-key'], request.body);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send({ charge: toChargeDto(result.charge), balanceCents: result.balanceCents });
    },
  );

  api.get(
    '/v1/charges/:id',
    {
      config,
      schema: {
        tags,
        summary: 'A charge',
        security,
        params: idParamsSchema,
        response: { 200: chargeOnlyResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireApiKey(request);
      return { charge: toChargeDto(await charges.get(request.params.id)) };
    },
  );

  api.post(
    '/v1/charges/:id/refund',
    {
      config,
      schema: {
        tags,
        summary: 'Refund a charge in full, once',
        description:
          'Gives the credits back with one `refund` ledger entry (reference `charge-refund:<id>`). A charge is refunded ' +
          'at most once: a second refund (also a parallel one) answers 409 `ALREADY_REFUNDED` and changes nothing.',
        security,
        params: idParamsSchema,
        response: { 200: chargeResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireApiKey(request);
      const result = await charges.refund(request.params.id);
      return { charge: toChargeDto(result.charge), balanceCents: result.balanceCents };
    },
  );
}
