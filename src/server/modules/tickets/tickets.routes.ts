import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  attachmentParamsSchema,
  attachmentUploadQuerySchema,
  cannedReplyBodySchema,
  cannedReplyListResponseSchema,
  cannedReplyResponseSchema,
  createTicketBodySchema,
  mergeTicketBodySchema,
  rateTicketBodySchema,
  replyBodySchema,
  requesterContextResponseSchema,
  staffMemberListResponseSchema,
  staffReplyBodySchema,
  ticketRatingStatsSchema,
  requesterTicketUpdateBodySchema,
  staffTicketListQuerySchema,
  staffTicketUpdateBodySchema,
  ticketIdParamsSchema,
  ticketListQuerySchema,
  ticketListResponseSchema,
  ticketResponseSchema,
} from '#shared/schemas/tickets.js';
import type { AppContext } from '#server/context.js';
import type { DeskExtensions } from './desk-extensions.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { checkUpload, downloadHeaders } from './attachments.js';
import { requesterContext } from './requester-context.js';
import type { Requester, TicketService } from './tickets.service.js';

const TICKET_LIMITS = {
  createPerRequester: { name: 'tickets:create', limit: 5, windowSeconds: 60 * 60 },
  createPerIp: { name: 'tickets:create-ip', limit: 20, windowSeconds: 60 * 60 },
  messagesPerRequester: { name: 'tickets:message', limit: 30, windowSeconds: 10 * 60 },
  attachmentsPerRequester: { name: 'tickets:attachment', limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

function requesterOf(request: FastifyRequest): Requester {
  const auth = request.auth!;
  return auth.isGuest ? { kind: 'guest', guestId: auth.guestId! } : { kind: 'user', userId: auth.userId! };
}

function subjectKey(requester: Requester): string {
  return requester.kind === 'user' ? `u:${requester.userId}` : `g:${requester.guestId}`;
}

/**
 * Tickets for requesters (guests under /tickets/guest, users under /tickets) and for staff
 * (/staff/tickets). The requester routes share one implementation; only the auth rule differs.
 */
export function registerTicketRoutes(app: FastifyInstance, ctx: AppContext, service: TicketService, desk: DeskExtensions = {}): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const withSla = async <T extends { _id: string }>(items: T[]) => (desk.withSla ? desk.withSla(ctx.database.db, items) : items);

  for (const [prefix, auth, security] of [
    ['/tickets/guest', 'guest', [{ bearer: [], guestId: [] }]],
    ['/tickets', 'user', [{ bearer: [] }]],
  ] as const) {
    const tags = [auth === 'guest' ? 'tickets (guest)' : 'tickets'];
    const config = { auth };

    api.post(
      prefix,
      {
        config,
        schema: {
          tags,
          summary: 'Open a ticket',
          security,
          body: createTicketBodySchema,
          response: { 201: ticketResponseSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const requester = requesterOf(request);
        await ctx.rateLimiter.consume(TICKET_LIMITS.createPerIp, request.ip);
        await ctx.rateLimiter.consume(TICKET_LIMITS.createPerRequester, subjectKey(requester));
        return reply.status(201).send({ ticket: await service.create(requester, request.body) });
      },
    );

    api.get(
      prefix,
      {
        config,
        schema: {
          tags,
          summary: 'My tickets, most recent activity first',
          security,
          querystring: ticketListQuerySchema,
          response: { 200: ticketListResponseSchema, ...errorResponses },
        },
      },
      async (request) => service.listMine(requesterOf(request), request.query),
    );

    api.get(
      `${prefix}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'One of my tickets with its messages',
          security,
          params: ticketIdParamsSchema,
          response: { 200: ticketResponseSchema, ...errorResponses },
        },
      },
      async (request) => ({ ticket: await service.getMine(requesterOf(request), request.params.id) }),
    );

    api.post(
      `${prefix}/:id/messages`,
      {
        config,
        schema: {
          tags,
          summary: 'Reply on my ticket',
          security,
          params: ticketIdParamsSchema,
          body: replyBodySchema,
          response: { 201: ticketResponseSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const requester = requesterOf(request);
        await ctx.rateLimiter.consume(TICKET_LIMITS.messagesPerRequester, subjectKey(requester));
        return reply.status(201).send({ ticket: await service.replyAsRequester(requester, request.params.id, request.body.message) });
      },
    );

    api.put(
      `${prefix}/:id`,
      {
        config,
        schema: {
          tags,
          summary: 'Close or reopen my ticket',
          security,
          params: ticketIdParamsSchema,
          body: requesterTicketUpdateBodySchema,
          response: { 200: ticketResponseSchema, ...errorResponses },
        },
      },
      async (request) => ({ ticket: await service.setStatusAsRequester(requesterOf(request), request.params.id, request.body.status) }),
    );

    api.get(
      `${prefix}/:id/attachments/:attachmentId`,
      {
        config,
        schema: {
          tags,
          summary: 'Download a file of my ticket (images inline, anything else as a download)',
          security,
          params: attachmentParamsSchema,
          response: errorResponses,
        },
      },
      async (request, reply) => {
        const file = await service.attachmentForRequester(requesterOf(request), request.params.id, request.params.attachmentId);
        return reply.headers(downloadHeaders(file)).send(file.bytes as never);
      },
    );

    api.post(
      `${prefix}/:id/rating`,
      {
        config,
        schema: {
          tags,
          summary: 'Rate the answer on my resolved or closed ticket (once)',
          security,
          params: ticketIdParamsSchema,
          body: rateTicketBodySchema,
          response: { 200: ticketResponseSchema, ...errorResponses },
        },
      },
      async (request) => ({ ticket: await service.rate(requesterOf(request), request.params.id, request.body) }),
    );
  }

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
    // SLA state per ticket (support-sla module, docs/decisions/0293).
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

  // Uploads: the request body is the file itself (no multipart parser is installed; decision 0190).
  // This scope parses nothing but raw bytes, capped at 10 MB while they stream in (413 beyond, and at
  // once when Content-Length says so); JSON and the strict-input rules stay as they are everywhere else.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ATTACHMENT_MAX_BYTES }, (_request, body, done) => done(null, body));
    const files = scope.withTypeProvider<ZodTypeProvider>();
    const consumes = [...ATTACHMENT_TYPES, 'application/octet-stream'];
    const description =
      'The request body is the file itself (up to 10 MB; PNG, JPEG, GIF, WebP or PDF, detected from the content). The name goes in `filename`.';
    for (const [prefix, auth, security] of [
      ['/tickets/guest', 'guest', [{ bearer: [], guestId: [] }]],
      ['/tickets', 'user', [{ bearer: [] }]],
    ] as const) {
      files.post(
        `${prefix}/:id/attachments`,
        {
          config: { auth },
          bodyLimit: ATTACHMENT_MAX_BYTES,
          schema: {
            tags: [auth === 'guest' ? 'tickets (guest)' : 'tickets'],
            summary: 'Attach a file to my ticket (as a new message)',
            description,
            consumes,
            security,
            params: ticketIdParamsSchema,
            querystring: attachmentUploadQuerySchema,
            response: { 201: ticketResponseSchema, ...errorResponses },
          },
        },
        async (request, reply) => {
          const requester = requesterOf(request);
          await ctx.rateLimiter.consume(TICKET_LIMITS.attachmentsPerRequester, subjectKey(requester));
          // Ownership first: someone else's ticket is a 404 whatever the file.
          await service.getMine(requester, request.params.id);
          const file = checkUpload(request.body, request.query.filename);
          return reply
            .status(201)
            .send({ ticket: await service.attachAsRequester(requester, request.params.id, file, request.query.note) });
        },
      );
    }
    files.post(
      '/staff/tickets/:id/attachments',
      {
        config: staffChange,
        bodyLimit: ATTACHMENT_MAX_BYTES,
        schema: {
          tags,
          summary: 'Attach a file to a ticket as a staff answer',
          description,
          consumes,
          security,
          params: ticketIdParamsSchema,
          querystring: attachmentUploadQuerySchema,
          response: { 201: ticketResponseSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        await service.getAny(request.params.id);
        const file = checkUpload(request.body, request.query.filename);
        return reply
          .status(201)
          .send({ ticket: await service.attachAsStaff({ userId: request.auth!.userId! }, request.params.id, file, request.query.note) });
      },
    );
  });

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
    // SLA state of the ticket (support-sla module, docs/decisions/0293).
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
