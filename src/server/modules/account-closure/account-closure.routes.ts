import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  closeAccountBodySchema,
  closeAccountResponseSchema,
  closureSummarySchema,
  eraseNowBodySchema,
  eraseNowResponseSchema,
  latePaymentRefundedBodySchema,
  latePaymentRefundSchema,
  pendingClosuresResponseSchema,
  restoreAccountBodySchema,
  restoreAccountResponseSchema,
} from '#shared/schemas/account-closure.js';
import { errorResponses, uuidParamsSchema } from '#shared/schemas/common.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { rememberDevice, requestMeta } from '#server/modules/auth/request-meta.js';
import { toUserDto } from '#server/modules/users/users.service.js';
import type { AccountClosureService } from './account-closure.service.js';

/** Closing an account, restoring it, and the staff console's pending closures (decision 0255). */
export function registerAccountClosureRoutes(app: FastifyInstance, service: AccountClosureService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['account closure'];
  const security = [{ bearer: [] }];

  api.get(
    '/users/me/closure',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'What closing my account would forfeit: balance, ad campaigns’ reserve, pending orders',
        security,
        response: { 200: closureSummarySchema, ...errorResponses },
      },
    },
    async (request) => service.summary(requireUserId(request)),
  );

  api.delete(
    '/users/me',
    {
      config: { auth: 'user', stepUp: true },
      schema: {
        tags,
        summary: 'Close my account: erased 14 days later unless restored (password, the second factor when on, the balance acknowledged)',
        security,
        body: closeAccountBodySchema,
        response: { 202: closeAccountResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(202).send(await service.close(requireUserId(request), request.body)),
  );

  api.post(
    '/auth/restore-account',
    {
      schema: {
        tags,
        summary:
          'Restore a closing account before its erasure and sign in; says what came back and what to redo (credentials, and a code when two-factor is on)',
        body: restoreAccountBodySchema,
        response: { 200: restoreAccountResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const { user, token, restored } = await service.restore(request.body, meta);
      rememberDevice(request, reply, meta);
      return { user: toUserDto(user), token, restored };
    },
  );

  api.get(
    '/admin/account-closures',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'Accounts closing and not yet erased, and payments that finished after an erasure, waiting for a refund',
        security,
        response: { 200: pendingClosuresResponseSchema, ...errorResponses },
      },
    },
    async () => ({ closures: await service.pending(), latePayments: await service.latePayments() }),
  );

  api.post(
    '/admin/account-closures/late-payments/:id/refunded',
    {
      // Records money sent back outside Olympus (docs/decisions/0305): no balance moves; audit-logged.
      config: { auth: 'admin', audited: true },
      schema: {
        tags,
        summary: 'Record that a payment which finished after its account was erased was sent back to its sender (audit-logged)',
        security,
        params: uuidParamsSchema('Unknown late payment'),
        body: latePaymentRefundedBodySchema,
        response: { 200: latePaymentRefundSchema, ...errorResponses },
      },
    },
    async (request) => service.markLatePaymentRefunded({ id: requireUserId(request) }, request.params.id, request.body.note),
  );

  api.post(
    '/admin/account-closures/:id/erase',
    {
      // Cannot be undone: the admin's second factor (docs/security.md#staff-powers).
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags,
        summary: 'Erase a closing account now, at its owner’s request (the username typed again; audit-logged)',
        security,
        params: uuidParamsSchema('Unknown account'),
        body: eraseNowBodySchema,
        response: { 200: eraseNowResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.eraseNow({ id: requireUserId(request) }, request.params.id, request.body.confirmUsername),
  );
}
