import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/schemas/common.js';
import {
  slaCalendarBodySchema,
  slaHolidayParamsSchema,
  slaHolidaySchema,
  slaSettingsResponseSchema,
  slaTargetsBodySchema,
} from '#shared/schemas/support-sla.js';
import type { SupportSlaService } from './support-sla.service.js';

/** Business hours and SLA targets (docs/decisions/0293): every staff member reads, admins change. */
export function registerSupportSlaRoutes(app: FastifyInstance, service: SupportSlaService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['support SLA (staff)'];
  const security = [{ bearer: [] }];
  const adminChange = { auth: 'admin', audited: true } as const;
  const response = { 200: slaSettingsResponseSchema, ...errorResponses };

  api.get(
    '/staff/support/sla',
    {
      config: { auth: 'staff' },
      schema: { tags, summary: 'The business-hours calendar, holidays and per-priority SLA targets', security, response },
    },
    async () => service.settings(),
  );

  api.put(
    '/staff/support/sla/calendar',
    {
      config: adminChange,
      schema: {
        tags,
        summary: 'Save the business hours (IANA zone, ISO weekdays, HH:MM window); a calendar with no working time is refused',
        security,
        body: slaCalendarBodySchema,
        response,
      },
    },
    async (request) => service.saveCalendar(request.auth!.userId!, request.body),
  );

  api.post(
    '/staff/support/sla/holidays',
    {
      config: adminChange,
      schema: { tags, summary: 'Add a holiday (409 when that date is one already)', security, body: slaHolidaySchema, response },
    },
    async (request) => service.addHoliday(request.auth!.userId!, request.body),
  );

  api.delete(
    '/staff/support/sla/holidays/:day',
    { config: adminChange, schema: { tags, summary: 'Remove a holiday', security, params: slaHolidayParamsSchema, response } },
    async (request) => service.removeHoliday(request.auth!.userId!, request.params.day),
  );

  api.put(
    '/staff/support/sla/targets',
    {
      config: adminChange,
      schema: {
        tags,
        summary: 'Save per-priority targets in business minutes (null: no target)',
        security,
        body: slaTargetsBodySchema,
        response,
      },
    },
    async (request) => service.saveTargets(request.auth!.userId!, request.body),
  );
}
