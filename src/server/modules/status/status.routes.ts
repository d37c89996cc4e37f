import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '#shared/schemas/common.js';
import {
  CHECK_STATES,
  createIncidentBodySchema,
  createMaintenanceBodySchema,
  maintenanceIdParamsSchema,
  maintenanceResponseSchema,
  updateMaintenanceBodySchema,
  subscribeBodySchema,
  subscriptionMessageResponseSchema,
  subscriptionTokenBodySchema,
  unsubscribeStatusBodySchema,
  unsubscribeStatusQuerySchema,
  incidentIdParamsSchema,
  incidentResponseSchema,
  statusComponentIdSchema,
  statusResponseSchema,
  currentStatusResponseSchema,
  updateIncidentBodySchema,
} from '#shared/schemas/status.js';
import type { AppContext } from '#server/context.js';
import { badRequest } from '#server/errors.js';
import { acceptedLocale, supportedLocale } from '#server/i18n/request-language.js';
import { translatorFor } from '#server/i18n/translator.js';
import { acceptOneClickForms } from '#server/modules/mail/one-click.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { statusAtomFeed } from './status-feed.js';
import type { StatusSubscriptions } from './status-subscriptions.js';
import type { StatusService } from './status.service.js';

const STATUS_LIMITS = {
  /** Staff "check now": a check calls the providers, so it is not a button to hold down. */
  checkNow: { name: 'status:check-now', limit: 6, windowSeconds: 60 },
  /** Subscribing mails a stranger's address: few per visitor, and few confirmation mails per address. */
  subscribePerIp: { name: 'status-subscribe:ip', limit: 5, windowSeconds: 60 * 60 },
  subscribePerEmail: { name: 'status-subscribe:email', limit: 3, windowSeconds: 24 * 60 * 60 },
  tokenPerIp: { name: 'status-subscription-token:ip', limit: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

const checkResultsSchema = z.object({
  results: z.array(
    z.object({
      component: statusComponentIdSchema,
      state: z.enum(CHECK_STATES),
      latencyMs: z.number().int().nullable(),
      detail: z.string().nullable(),
    }),
  ),
});

/** The status page's API: the public report, staff incidents and maintenance, and mail subscriptions. */
export function registerStatusRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  service: StatusService,
  subscriptions: StatusSubscriptions,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  const tags = ['status'];
  const staff = { auth: 'staff' } as const;
  const security = [{ bearer: [] }];

  api.get(
    '/status',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Component health, 90 days of daily history, and incidents',
        response: { 200: statusResponseSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return service.report();
    },
  );

  api.get(
    '/status/current',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'What affects each component right now (state, open incidents, maintenance under way), without the history',
        response: { 200: currentStatusResponseSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return service.current();
    },
  );

  api.post(
    '/status/incidents',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Post an incident',
        security,
        body: createIncidentBodySchema,
        response: { 201: incidentResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send({ incident: await service.createIncident(request.body, request.auth!.userId!) }),
  );

  api.put(
    '/status/incidents/:id',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Update an incident (a message adds to its timeline)',
        security,
        params: incidentIdParamsSchema,
        body: updateIncidentBodySchema,
        response: { 200: incidentResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ incident: await service.updateIncident(request.params.id, request.body, request.auth!.userId!) }),
  );

  api.post(
    '/status/maintenance',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Schedule a maintenance window (subscribers are told)',
        security,
        body: createMaintenanceBodySchema,
        response: { 201: maintenanceResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send({ maintenance: await service.createMaintenance(request.body, request.auth!.userId!) }),
  );

  api.put(
    '/status/maintenance/:id',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Edit a maintenance window not over yet (subscribers are told if it moves; 409 once over or cancelled)',
        security,
        params: maintenanceIdParamsSchema,
        body: updateMaintenanceBodySchema,
        response: { 200: maintenanceResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ maintenance: await service.updateMaintenance(request.params.id, request.body) }),
  );

  api.post(
    '/status/maintenance/:id/cancel',
    {
      config: staff,
      schema: {
        tags,
        summary:
          'Cancel a maintenance window not over yet: it leaves the page and the feed, subscribers are told (409 once over or cancelled)',
        security,
        params: maintenanceIdParamsSchema,
        response: { 204: z.null().describe('Cancelled'), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.cancelMaintenance(request.params.id);
      return reply.status(204).send(null);
    },
  );

  // Atom under /api: a path with an extension outside /api is not the SPA's, but /api is never swallowed by it.
  api.get(
    '/status/feed.atom',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary:
          'Incidents and maintenance as an Atom feed (application/atom+xml), its words in `lang` (en, es, ru, de), else the Accept-Language header, else English',
        querystring: z.object({ lang: z.string().max(35).optional().describe('en, es, ru or de; anything else is ignored') }),
        produces: ['application/atom+xml'],
      },
    },
    async (request, reply) => {
      const now = new Date();
      const [incidents, maintenance] = await Promise.all([service.incidents(), service.maintenance(now)]);
      // The language of the words around staff's text (docs/decisions/0331): ?lang=, else the reader's header.
      const tr = translatorFor(supportedLocale(request.query.lang) ?? acceptedLocale(request.headers['accept-language']));
      reply.header('Cache-Control', 'public, max-age=60');
      reply.header('Vary', 'Accept-Language');
      reply.type('application/atom+xml; charset=utf-8');
      return statusAtomFeed({ publicUrl: ctx.config.publicUrl, incidents, maintenance, now, tr });
    },
  );

  const subscribed = 'Check your inbox: follow the link in the mail we sent to confirm the subscription.';
  api.post(
    '/status/subscriptions',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Subscribe an email address to status notices (a confirmation mail is sent; the answer is the same for any address)',
        body: subscribeBodySchema,
        response: { 202: subscriptionMessageResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await ctx.rateLimiter.consume(STATUS_LIMITS.subscribePerIp, request.ip);
      await ctx.rateLimiter.consume(STATUS_LIMITS.subscribePerEmail, request.body.email.toLowerCase());
      await subscriptions.subscribe(request.body.email, request.body.locale);
      return reply.status(202).send({ message: subscribed });
    },
  );

  api.post(
    '/status/subscriptions/confirm',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Confirm a status subscription (the link in the confirmation mail)',
        body: subscriptionTokenBodySchema,
        response: { 200: subscriptionMessageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await ctx.rateLimiter.consume(STATUS_LIMITS.tokenPerIp, request.ip);
      await subscriptions.confirm(request.body.token);
      return { message: 'Subscribed: you will get a mail for new incidents, their updates and scheduled maintenance.' };
    },
  );

  // The unsubscribe URL of every notice's List-Unsubscribe header (RFC 8058): a form POST of
  // `List-Unsubscribe=One-Click` with the token in the query unsubscribes; the page's button sends JSON.
  void app.register(async (scope) => {
    acceptOneClickForms(scope);
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/status/subscriptions/unsubscribe',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary:
            "End a status subscription: the button of the unsubscribe page (token in the body), or a mail client's RFC 8058 one-click POST (token in the query)",
          querystring: unsubscribeStatusQuerySchema,
          body: unsubscribeStatusBodySchema.optional(),
          response: { 200: subscriptionMessageResponseSchema, ...errorResponses },
        },
      },
      async (request) => {
        await ctx.rateLimiter.consume(STATUS_LIMITS.tokenPerIp, request.ip);
        const token = request.body?.token ?? request.query.token;
        if (!token) throw badRequest('The link is incomplete');
        await subscriptions.unsubscribe(token);
        return { message: 'Unsubscribed: this address gets no more status notices.' };
      },
    );
  });

  // Opening the List-Unsubscribe URL (a person, or a mail scanner prefetching it) unsubscribes no one:
  // it leads to the page that asks for a click.
  api.get(
    '/status/subscriptions/unsubscribe',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Opened in a browser, the one-click unsubscribe URL leads to the unsubscribe page (nothing changes on a GET)',
        querystring: unsubscribeStatusQuerySchema,
        response: { 303: z.null().describe('Redirect to /status/unsubscribe'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const query = request.query.token ? `?${new URLSearchParams({ token: request.query.token }).toString()}` : '';
      reply.header('Cache-Control', 'no-store');
      reply.header('Referrer-Policy', 'no-referrer');
      return reply.redirect(`/status/unsubscribe${query}`, 303);
    },
  );

  api.post(
    '/status/checks',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Run the status checks now (after fixing something, without waiting a minute)',
        security,
        response: { 200: checkResultsSchema, ...errorResponses },
      },
    },
    async (request) => {
      await ctx.rateLimiter.consume(STATUS_LIMITS.checkNow, request.auth!.userId!);
      return { results: await service.runChecks() };
    },
  );
}
