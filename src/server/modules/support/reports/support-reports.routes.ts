import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '#shared/schemas/common.js';
import {
  SUPPORT_REPORT_CSV_PATH,
  SUPPORT_REPORT_PATH,
  supportReportQuerySchema,
  supportReportSchema,
} from '#shared/schemas/support-reports.js';
import type { AppContext } from '#server/context.js';
import { buildSupportReport, supportReportCsv } from './support-reports.service.js';

/** Routes are mounted under /api; the shared paths carry that prefix for the web. */
const underApi = (path: string) => path.replace(/^\/api/, '');

/** The support desk report and its CSV (docs/decisions/0295): staff only (support and admin), read only. */
export function registerSupportReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['support reports (staff)'];
  const security = [{ bearer: [] }];

  api.get(
    underApi(SUPPORT_REPORT_PATH),
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary:
          'Tickets created from one UTC day to another (both included, at most 366 days): volume, response and resolution times, SLA attainment, tags, assignees, ratings, weeks',
        security,
        querystring: supportReportQuerySchema,
        response: { 200: supportReportSchema, ...errorResponses },
      },
    },
    async (request) => buildSupportReport(ctx.database.db, request.query.from, request.query.to),
  );

  api.get(
    underApi(SUPPORT_REPORT_CSV_PATH),
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'The same report as one CSV table',
        description:
          'Columns: section, key, tickets, resolved, first_response_median_minutes, first_response_met, first_response_with_target, ' +
          'first_response_attainment_pct, resolution_met, resolution_with_target, resolution_attainment_pct, average_rating. ' +
          'Sections: total, week, priority, assignee, tag (docs/support-reports.md). Text cells a spreadsheet would read as a formula start with an apostrophe.',
        security,
        querystring: supportReportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const csv = supportReportCsv(await buildSupportReport(ctx.database.db, from, to));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="olympus-support-report-${from}-to-${to}.csv"`)
        .header('cache-control', 'no-store')
        .serializer((payload: unknown) => String(payload))
        .send(csv);
    },
  );
}
