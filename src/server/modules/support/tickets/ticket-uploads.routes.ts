import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/schemas/common.js';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  attachmentUploadQuerySchema,
  ticketIdParamsSchema,
  ticketResponseSchema,
} from '#shared/schemas/tickets.js';
import type { AppContext } from '#server/context.js';
import { checkUpload } from './attachments.js';
import type { TicketService } from './tickets.service.js';
import { REQUESTER_PREFIXES, requesterOf, subjectKey, TICKET_LIMITS } from './tickets.routes.js';

/** File uploads to tickets, for requesters (as a new message) and for staff (as an answer). */
export function registerTicketUploadRoutes(app: FastifyInstance, ctx: AppContext, service: TicketService): void {
  // Staff changes write their own audit entry (before and after) in their transaction.
  const staffChange = { auth: 'staff', audited: true } as const;
  const staffTags = ['tickets (staff)'];
  const staffSecurity = [{ bearer: [] }];

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
    for (const [prefix, auth, security] of REQUESTER_PREFIXES) {
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
          tags: staffTags,
          summary: 'Attach a file to a ticket as a staff answer',
          description,
          consumes,
          security: staffSecurity,
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
}
