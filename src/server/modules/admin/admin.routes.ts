import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserDetailResponseSchema,
  adminUserListQuerySchema,
  adminUserListResponseSchema,
  adminUserSchema,
  auditListQuerySchema,
  auditListResponseSchema,
  disableBodySchema,
  overviewQuerySchema,
  overviewResponseSchema,
  roleChangeBodySchema,
} from '#shared/schemas/admin.js';
import { errorResponses, idParamsSchema, pageShape, paginationQuerySchema } from '#shared/schemas/common.js';
import { adminLedgerEntrySchema } from '#shared/schemas/credits.js';
import type { AppContext } from '#server/context.js';
import { getBalanceCents, listLedgerEntries, toLedgerEntryDto } from '#server/modules/credits/ledger.service.js';
import type { AdminService } from './admin.service.js';
import { listAudit } from '#server/modules/audit/audit.service.js';

/**
 * Operator console calls. Reading is for staff (support and admin); changing accounts is for admins.
 * The server enforces both; the browser only hides links.
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext, admin: AdminService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['operator console'];
  const security = [{ bearer: [] }];

  api.get(
    '/admin/users',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'Search users',
        security,
        querystring: adminUserListQuerySchema,
        response: { 200: adminUserListResponseSchema, ...errorResponses },
      },
    },
    async (request) => admin.searchUsers(request.query),
  );

  api.get(
    '/admin/users/:id',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'A user with sessions and counts',
        security,
        params: idParamsSchema,
        response: { 200: adminUserDetailResponseSchema, ...errorResponses },
      },
    },
    async (request) => admin.userDetail(request.params.id),
  );

  api.get(
    '/admin/users/:id/ledger',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: "A user's ledger entries, newest first",
        security,
        params: idParamsSchema,
        querystring: paginationQuerySchema,
        response: {
          200: z.object({ entries: z.array(adminLedgerEntrySchema), balanceCents: z.number().int(), ...pageShape }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { user } = await admin.userDetail(request.params.id);
      const { rows, total } = await listLedgerEntries(ctx.database.db, user._id, request.query);
      const balanceCents = (await getBalanceCents(ctx.database.db, user._id)) ?? 0;
      // Staff see an adjustment's internal reason beside what the customer reads (docs/decisions/0235).
      const entries = rows.map((row) => ({
        ...toLedgerEntryDto(row),
        internalReason: typeof row.metadata.internalReason === 'string' ? row.metadata.internalReason : null,
      }));
      return { entries, balanceCents, total, ...request.query };
    },
  );

  api.put(
    '/admin/users/:id/role',
    {
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags,
        summary: "Change role and subroles (the admin's second factor in the body)",
        security,
        params: idParamsSchema,
        body: roleChangeBodySchema,
        response: { 200: z.object({ user: adminUserSchema }), ...errorResponses },
      },
    },
    async (request) => ({ user: await admin.changeRole(await admin.actor(request.auth!.userId!), request.params.id, request.body) }),
  );

  api.put(
    '/admin/users/:id/disabled',
    {
      config: { auth: 'admin', audited: true },
      schema: {
        tags,
        summary: 'Disable (ending every session) or re-enable an account',
        security,
        params: idParamsSchema,
        body: disableBodySchema,
        response: { 200: z.object({ user: adminUserSchema }), ...errorResponses },
      },
    },
    async (request) => ({
      user: await admin.setDisabled(
        await admin.actor(request.auth!.userId!),
        request.params.id,
        request.body.disabled,
        request.body.reason,
      ),
    }),
  );

  api.get(
    '/admin/audit',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'The audit log, newest first',
        security,
        querystring: auditListQuerySchema,
        response: { 200: auditListResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { entries, total } = await listAudit(ctx.database.db, request.query);
      return { entries, total, page: request.query.page, pageSize: request.query.pageSize };
    },
  );

  api.get(
    '/admin/overview',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'Sign-ups, deposits, credits and tickets per day',
        security,
        querystring: overviewQuerySchema,
        response: { 200: overviewResponseSchema, ...errorResponses },
      },
    },
    async (request) => admin.overview(request.query.days),
  );
}
