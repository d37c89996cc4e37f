import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/schemas/common.js';
import {
  attachmentParamsSchema,
  createTicketBodySchema,
  rateTicketBodySchema,
  replyBodySchema,
  requesterTicketUpdateBodySchema,
  ticketIdParamsSchema,
  ticketListQuerySchema,
  ticketListResponseSchema,
  ticketResponseSchema,
} from '#shared/schemas/tickets.js';
import type { AppContext } from '#server/context.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { downloadHeaders } from './attachments.js';
import type { Requester, TicketService } from './tickets.service.js';

export const TICKET_LIMITS = {
  createPerRequester: { name: 'tickets:create', limit: 5, windowSeconds: 60 * 60 },
  createPerIp: { name: 'tickets:create-ip', limit: 20, windowSeconds: 60 * 60 },
  messagesPerRequester: { name: 'tickets:message', limit: 30, windowSeconds: 10 * 60 },
  attachmentsPerRequester: { name: 'tickets:attachment', limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

/** The requester routes' two homes: guests under /tickets/guest, users under /tickets; only the auth rule differs. */
export const REQUESTER_PREFIXES = [
  ['/tickets/guest', 'guest', [{ bearer: [], guestId: [] }]],
  ['/tickets', 'user', [{ bearer: [] }]],
] as const;

export function requesterOf(request: FastifyRequest): Requester {
  const auth = request.auth!;
  return auth.isGuest ? { kind: 'guest', guestId: auth.guestId! } : { kind: 'user', userId: auth.userId! };
}

export function subjectKey(requester: Requester): string {
  return requester.kind === 'user' ? `u:${requester.userId}` : `g:${requester.guestId}`;
}

/**
 * Tickets for requesters (guests under /tickets/guest, users under /tickets). The requester routes share
 * one implementation; only the auth rule differs. Staff routes: staff-tickets.routes.ts; file uploads
 * (requester and staff): ticket-uploads.routes.ts.
 */
export function registerTicketRoutes(app: FastifyInstance, ctx: AppContext, service: TicketService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  for (const [prefix, auth, security] of REQUESTER_PREFIXES) {
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
}
