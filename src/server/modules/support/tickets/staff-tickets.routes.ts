import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import {
  attachmentParamsSchema,
  cannedReplyBodySchema,
  cannedReplyListResponseSchema,
  cannedReplyResponseSchema,
  mergeTicketBodySchema,
  requesterContextResponseSchema,
  staffMemberListResponseSchema,
  staffReplyBodySchema,
  ticketRatingStatsSchema,
  staffTicketListQuerySchema,
  staffTicketUpdateBodySchema,
  ticketIdParamsSchema,
  ticketListResponseSchema,
  ticketResponseSchema,
} from '#shared/schemas/tickets.js';
import type { AppContext } from '#server/context.js';
import type { DeskExtensions } from './desk-extensions.js';
import { downloadHeaders } from './attachments.js';
import { requesterContext } from './requester-context.js';
import type { TicketService } from './tickets.service.js';

/** The support desk for staff (/staff/tickets, /staff/ticket-replies); staff uploads are in ticket-uploads.routes.ts. */
export function registerStaffTicketRoutes(app: FastifyInstance, ctx: AppContext, service: TicketService, desk: DeskExtensions = {}): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const withSla = async <T extends { _id: string }>(items: T[]) => (desk.withSla ? desk.withSla(ctx.database.db, items) : items);

  const staff = { auth: 'staff' } as const;
  // Staff changes write their own audit entry (before and after) in their transaction.
  const staffChange = { auth: 'staff', audited: true } as const;
  const tags = ['tickets (staff)'];
  const security = [{ bearer: [] }];

  api.get(
    '/staff/tickets',
    {
      config: staff,
      schema: {
        tags,
        summary: 'All tickets, filtered',
        security,
        querystring: staffTicketListQuerySchema,
        response: { 200: ticketListResponseSchema, ...errorResponses },
      },
    },
    // SLA state per ticket (the SLA part, docs/decisions/0293).
    async (request) => {
      const list = await service.listAll(request.query, { userId: request.auth!.userId! });
      return { ...list, tickets: await withSla(list.tickets) };
    },
  );

  api.get(
    '/staff/tickets/staff-members',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Support and admin accounts tickets can be assigned to',
        security,
        response: { 200: staffMemberListResponseSchema, ...errorResponses },
      },
    },
    async () => ({ staff: await service.staffMembers() }),
  );

  api.get(
    '/staff/tickets/ratings',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Average rating, overall and per assigned staff member',
        security,
        response: { 200: ticketRatingStatsSchema, ...errorResponses },
      },
    },
    async () => service.ratingStats(),
  );

  api.get(
    '/staff/ticket-replies',
    {
      config: staff,
      schema: { tags, summary: 'Canned replies', security, response: { 200: cannedReplyListResponseSchema, ...errorResponses } },
    },
    async () => ({ replies: await service.cannedReplies() }),
  );

  api.post(
    '/staff/ticket-replies',
    {
      config: staffChange,
      schema: {
        tags,
        summary: 'Add a canned reply',
        security,
        body: cannedReplyBodySchema,
        response: { 201: cannedReplyResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ reply: await service.saveCannedReply({ userId: request.auth!.userId! }, null, request.body) }),
  );

  api.put(
    '/staff/ticket-replies/:id',
    {
      config: staffChange,
      schema: {
        tags,
        summary: 'Change a canned reply',
        security,
        params: idParamsSchema,
        body: cannedReplyBodySchema,
        response: { 200: cannedReplyResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ reply: await service.saveCannedReply({ userId: request.auth!.userId! }, request.params.id, request.body) }),
  );

  api.delete(
    '/staff/ticket-replies/:id',
    {
      config: staffChange,
      schema: { tags, summary: 'Delete a canned reply', security, params: idParamsSchema, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await service.deleteCannedReply({ userId: request.auth!.userId! }, request.params.id);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/staff/tickets/:id/attachments/:attachmentId',
    {
      config: staff,
      schema: { tags, summary: 'Download a file of any ticket', security, params: attachmentParamsSchema, response: errorResponses },
    },
    async (request, reply) => {
      const file = await service.attachmentForStaff(request.params.id, request.params.attachmentId);
      return reply.headers(downloadHeaders(file)).send(file.bytes as never);
    },
  );

  api.get(
    '/staff/tickets/:id',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Any ticket with its messages',
        security,
        params: ticketIdParamsSchema,
        response: { 200: ticketResponseSchema, ...errorResponses },
      },
    },
    // SLA state of the ticket (the SLA part, docs/decisions/0293).
    async (request) => ({ ticket: (await withSla([await service.getAny(request.params.id)]))[0]! }),
  );

  api.get(
    '/staff/tickets/:id/requester',
    {
      config: staff,
      schema: {
        tags,
        summary: "Who asks: the requester's account, balance, newest payments, exchanges and orders, and other open tickets (read-only)",
        security,
        params: ticketIdParamsSchema,
        response: { 200: requesterContextResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ requester: await requesterContext(ctx.database.db, request.params.id) }),
  );

  api.post(
    '/staff/tickets/:id/messages',
    {
      config: staffChange,
      schema: {
        tags,
        summary: 'Answer a ticket, or add an internal note (internal: true) the requester never sees',
        security,
        params: ticketIdParamsSchema,
        body: staffReplyBodySchema,
        response: { 201: ticketResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        ticket: await service.replyAsStaff(
          { userId: request.auth!.userId! },
          request.params.id,
          request.body.message,
          request.body.internal === true,
        ),
      }),
  );

  api.post(
    '/staff/tickets/:id/merge',
    {
      config: staffChange,
      schema: {
        tags,
        summary: 'Merge a duplicate ticket of the same requester into this one',
        security,
        params: ticketIdParamsSchema,
        body: mergeTicketBodySchema,
        response: { 200: ticketResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ ticket: await service.merge({ userId: request.auth!.userId! }, request.params.id, request.body.sourceId) }),
  );

  api.put(
    '/staff/tickets/:id',
    {
      config: staffChange,
      schema: {
        tags,
        summary: 'Change status or priority, or assign (to me or a named staff member)',
        security,
        params: ticketIdParamsSchema,
        body: staffTicketUpdateBodySchema,
        response: { 200: ticketResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ ticket: await service.updateAsStaff({ userId: request.auth!.userId! }, request.params.id, request.body) }),
  );
}
