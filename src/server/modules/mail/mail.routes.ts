import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, isUuid, messageResponseSchema, uuidParamsSchema } from '#shared/schemas/common.js';
import {
  adminMailListResponseSchema,
  adminMailQuerySchema,
  mailPreferencesBodySchema,
  mailPreferencesSchema,
  unsubscribeBodySchema,
  unsubscribeQuerySchema,
  unsubscribeResponseSchema,
} from '#shared/schemas/mail.js';
import type { AppContext } from '#server/context.js';
import { AppError, badRequest, notFound } from '#server/errors.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { readMailPreferences, turnOffMailKind, updateMailPreferences } from './mail-preferences.js';
import type { MailService, OptionalKind } from './mail.service.js';
import { acceptOneClickForms } from './one-click.js';

const UNSUBSCRIBE_LIMIT: RateLimitRule = { name: 'unsubscribe:ip', limit: 60, windowSeconds: 15 * 60 };

const KIND_NAMES: Record<OptionalKind, string> = {
  payment_credited: 'payment notifications',
  ticket_reply: 'support ticket notifications',
  order_updates: 'order notifications',
};

/**
 * Mail under /api: notification settings, unsubscribe without signing in (the link in the mail and
 * the RFC 8058 one-click POST to the List-Unsubscribe URL), and the staff view of the outbox.
 */
export function registerMailRoutes(app: FastifyInstance, ctx: AppContext, mail: MailService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const security = [{ bearer: [] }];

  api.get(
    '/users/mail-preferences',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users'],
        summary: 'Which optional notifications I receive',
        security,
        response: { 200: mailPreferencesSchema, ...errorResponses },
      },
    },
    async (request) => readMailPreferences(db, request.auth!.userId!),
  );

  api.put(
    '/users/mail-preferences',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users'],
        summary: 'Turn optional notifications on or off (security mails are always sent)',
        security,
        body: mailPreferencesBodySchema,
        response: { 200: mailPreferencesSchema, ...errorResponses },
      },
    },
    async (request) => updateMailPreferences(db, request.auth!.userId!, request.body),
  );

  // Form bodies only here: the one-click POST of RFC 8058 sends `List-Unsubscribe=One-Click` as a form.
  void app.register(async (scope) => {
    acceptOneClickForms(scope);
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/mail/unsubscribe',
      {
        schema: {
          tags: ['mail'],
          summary: 'Turn off one kind of notification with the signed link from a mail (no sign-in)',
          querystring: unsubscribeQuerySchema,
          body: unsubscribeBodySchema.optional(),
          response: { 200: unsubscribeResponseSchema, ...errorResponses },
        },
      },
      async (request) => {
        await ctx.rateLimiter.consume(UNSUBSCRIBE_LIMIT, request.ip);
        const token = request.body?.token ?? request.query.token;
        if (!token) throw badRequest('The link is missing its token');
        const parsed = mail.readUnsubscribeToken(token);
        if (!parsed || !isUuid(parsed.userId)) {
          throw new AppError('TOKEN_INVALID', 'This unsubscribe link is not valid. Change your notifications in your settings instead.');
        }
        if (!(await turnOffMailKind(db, parsed.userId, parsed.kind))) throw notFound('This account no longer exists');
        return { success: true as const, message: `You will no longer receive ${KIND_NAMES[parsed.kind]} by email.`, kind: parsed.kind };
      },
    );
  });

  api.get(
    '/admin/mail',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['admin'],
        summary: 'Outgoing mail, newest first (failed ones with their last error)',
        security,
        querystring: adminMailQuerySchema,
        response: { 200: adminMailListResponseSchema, ...errorResponses },
      },
    },
    async (request) => mail.list(request.query),
  );

  api.post(
    '/admin/mail/:id/retry',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['admin'],
        summary: 'Send a failed message again',
        security,
        params: uuidParamsSchema(),
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      if (!(await mail.retry(request.params.id))) throw notFound('No failed message with this id can be sent again');
      return { message: 'The message was queued again' };
    },
  );
}
