import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, errorResponseSchema, idParamsSchema } from '#shared/schemas/common.js';
import { dataExportRequestedSchema, dataExportSchema, latestDataExportSchema } from '#shared/schemas/privacy.js';
import type { AppContext } from '#server/context.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { getDataExport, latestDataExport, openDataExport, requestDataExport } from './data-export.service.js';

/** A copy of my data (docs/product.md#privacy). Signed-in users only; someone else's export is a 404. */
export function registerPrivacyRoutes(app: FastifyInstance, ctx: AppContext, mail: MailService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['privacy'];
  const security = [{ bearer: [] }];
  const db = ctx.database.db;

  api.post(
    '/users/me/export',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Ask for a copy of my data (one a day); a job builds the ZIP',
        description:
          'Answers 202 with the export id; follow it with GET /api/users/me/exports/{id}. A second request within 24 hours ' +
          'answers 429 EXPORT_ALREADY_REQUESTED with details.exportId, details.nextRequestAt and Retry-After.',
        security,
        response: { 202: dataExportRequestedSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(202).send(await requestDataExport({ db, mail }, requireUserId(request))),
  );

  api.get(
    '/users/me/exports',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My latest copy of my data (requested within 7 days), or null',
        security,
        response: { 200: latestDataExportSchema, ...errorResponses },
      },
    },
    async (request) => ({ export: await latestDataExport(db, requireUserId(request)) }),
  );

  api.get(
    '/users/me/exports/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'One of my exports: pending (with progress), ready (until expiresAt), expired or failed',
        security,
        params: idParamsSchema,
        response: { 200: dataExportSchema, ...errorResponses },
      },
    },
    async (request) => getDataExport(db, requireUserId(request), request.params.id),
  );

  api.get(
    '/users/me/exports/:id/download',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Download a ready export (application/zip) within 7 days',
        description: 'Pending or failed: 409 EXPORT_NOT_READY. Older than 7 days: 410 EXPORT_EXPIRED.',
        security,
        params: idParamsSchema,
        produces: ['application/zip'],
        response: { 200: z.any().describe('application/zip'), 410: errorResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const file = await openDataExport({ db, attachmentsDir: ctx.config.attachmentsDir }, requireUserId(request), request.params.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-length', String(file.size))
        .send(file.stream);
    },
  );
}
