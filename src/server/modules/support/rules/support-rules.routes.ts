import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import {
  autoCloseSettingsSchema,
  ruleBodySchema,
  ruleEnabledBodySchema,
  ruleListResponseSchema,
  ruleResponseSchema,
  ruleRunListResponseSchema,
  ticketTagsBodySchema,
  ticketTagsResponseSchema,
} from '#shared/schemas/support-rules.js';
import type { SupportRulesService } from './support-rules.service.js';

/**
 * Staff read rules, the run log and the auto-close setting; admins change rules and the setting; any
 * staff member sets a ticket's tags. Every change writes its own audit entry in its transaction.
 */
export function registerSupportRulesRoutes(app: FastifyInstance, service: SupportRulesService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['support rules (staff)'];
  const security = [{ bearer: [] }];
  const adminChange = { auth: 'admin', audited: true } as const;

  api.put(
    '/staff/tickets/:id/tags',
    {
      config: { auth: 'staff', audited: true },
      schema: {
        tags,
        summary: "Set a ticket's tags",
        security,
        params: idParamsSchema,
        body: ticketTagsBodySchema,
        response: { 200: ticketTagsResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ tags: await service.setTags(request.auth!.userId!, request.params.id, request.body.tags) }),
  );

  api.get(
    '/staff/support-rules',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'Every automation rule, in the order they run',
        security,
        response: { 200: ruleListResponseSchema, ...errorResponses },
      },
    },
    async () => ({ rules: await service.list() }),
  );

  api.get(
    '/staff/support-rules/runs',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'The latest rule runs: rule, ticket, actions taken',
        security,
        response: { 200: ruleRunListResponseSchema, ...errorResponses },
      },
    },
    async () => ({ runs: await service.runs() }),
  );

  api.post(
    '/staff/support-rules',
    {
      config: adminChange,
      schema: { tags, summary: 'Create a rule', security, body: ruleBodySchema, response: { 201: ruleResponseSchema, ...errorResponses } },
    },
    async (request, reply) => reply.status(201).send({ rule: await service.save(request.auth!.userId!, null, request.body) }),
  );

  api.put(
    '/staff/support-rules/:id',
    {
      config: adminChange,
      schema: {
        tags,
        summary: 'Change a rule',
        security,
        params: idParamsSchema,
        body: ruleBodySchema,
        response: { 200: ruleResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ rule: await service.save(request.auth!.userId!, request.params.id, request.body) }),
  );

  api.put(
    '/staff/support-rules/:id/enabled',
    {
      config: adminChange,
      schema: {
        tags,
        summary: 'Enable or disable a rule',
        security,
        params: idParamsSchema,
        body: ruleEnabledBodySchema,
        response: { 200: ruleResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ rule: await service.setEnabled(request.auth!.userId!, request.params.id, request.body.enabled) }),
  );

  api.delete(
    '/staff/support-rules/:id',
    {
      config: adminChange,
      schema: {
        tags,
        summary: 'Delete a rule (its runs stay in the log)',
        security,
        params: idParamsSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.remove(request.auth!.userId!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/staff/support-settings/auto-close',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        summary: 'Days after which resolved tickets close (0 = never)',
        security,
        response: { 200: autoCloseSettingsSchema, ...errorResponses },
      },
    },
    async () => ({ autoCloseDays: await service.autoCloseDays() }),
  );

  api.put(
    '/staff/support-settings/auto-close',
    {
      config: adminChange,
      schema: {
        tags,
        summary: 'Set the days after which resolved tickets close',
        security,
        body: autoCloseSettingsSchema,
        response: { 200: autoCloseSettingsSchema, ...errorResponses },
      },
    },
    async (request) => ({ autoCloseDays: await service.setAutoCloseDays(request.auth!.userId!, request.body.autoCloseDays) }),
  );
}
