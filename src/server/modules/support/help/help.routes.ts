import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import {
  helpArticleListResponseSchema,
  helpArticleQuerySchema,
  helpArticleResponseSchema,
  helpArticleWriteBodySchema,
  helpDeflectionBodySchema,
  helpPreviewBodySchema,
  helpPreviewResponseSchema,
  helpSearchQuerySchema,
  helpSlugParamsSchema,
  helpSuggestQuerySchema,
  helpSuggestResponseSchema,
  helpVoteBodySchema,
  staffHelpArticleListResponseSchema,
  staffHelpArticleResponseSchema,
  helpTranslationListResponseSchema,
  helpTranslationParamsSchema,
  helpTranslationResponseSchema,
  helpTranslationWriteBodySchema,
} from '#shared/schemas/help.js';
import type { AppContext } from '#server/context.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { anonymousVoter, type HelpRequester, type HelpService } from './help.service.js';

const SEARCH_LIMIT: RateLimitRule = { name: 'help-search:ip', limit: 300, windowSeconds: 5 * 60 };
const VOTE_LIMIT: RateLimitRule = { name: 'help-vote:voter', limit: 30, windowSeconds: 60 * 60 };
const DEFLECTION_LIMIT: RateLimitRule = { name: 'help-deflection:requester', limit: 60, windowSeconds: 60 * 60 };

/**
 * The help centre (docs/decisions/0290): anyone reads and searches published articles and votes on them;
 * someone writing a ticket gets suggestions; staff write articles (each change audited by the service).
 */
export function registerHelpRoutes(app: FastifyInstance, ctx: AppContext, service: HelpService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['help'];
  const voterSalt = Buffer.from(ctx.config.jwtSecret).toString('hex');

  api.get(
    '/help/articles',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Published help articles; with `q`, the ones that match, best first; with `locale`, translated where they can be',
        querystring: helpSearchQuerySchema,
        response: { 200: helpArticleListResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      if (request.query.q) await ctx.rateLimiter.consume(SEARCH_LIMIT, request.ip);
      return service.listPublished(request.query);
    },
  );

  api.get(
    '/help/articles/:slug',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'One published article, rendered; with `locale`, in that language when it has a translation in it',
        params: helpSlugParamsSchema,
        querystring: helpArticleQuerySchema,
        response: { 200: helpArticleResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.getPublished(request.params.slug, request.query.locale),
  );

  api.post(
    '/help/articles/:slug/vote',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: '"Was this helpful?": one vote per person and article; voting again changes it',
        params: helpSlugParamsSchema,
        body: helpVoteBodySchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const voter = request.auth ? `account:${request.auth.userId ?? request.auth.guestId}` : anonymousVoter(request.ip, voterSalt);
      await ctx.rateLimiter.consume(VOTE_LIMIT, voter);
      await service.vote(request.params.slug, voter, request.body.helpful);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/help/suggestions',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'Up to three articles for a ticket subject being typed',
        security: [{ bearer: [] }],
        querystring: helpSuggestQuerySchema,
        response: { 200: helpSuggestResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await ctx.rateLimiter.consume(SEARCH_LIMIT, request.ip);
      return { articles: await service.suggest(request.query.q, request.query.locale) };
    },
  );

  api.post(
    '/help/deflections',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'Someone writing a ticket opened a suggested article (counted as a ticket avoided if no ticket follows within a day)',
        security: [{ bearer: [] }],
        body: helpDeflectionBodySchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = request.auth!;
      const requester: HelpRequester = auth.isGuest ? { userId: null, guestId: auth.guestId! } : { userId: auth.userId!, guestId: null };
      await ctx.rateLimiter.consume(DEFLECTION_LIMIT, requester.userId ?? requester.guestId);
      await service.recordDeflection(request.body.slug, requester);
      return reply.status(204).send(null);
    },
  );

  // ---- Staff -------------------------------------------------------------------------------------
  const staffTags = ['help (staff)'];
  const security = [{ bearer: [] }];
  const staffChange = { auth: 'staff', audited: true } as const;

  api.get(
    '/staff/help/articles',
    {
      config: { auth: 'staff' },
      schema: {
        tags: staffTags,
        summary: 'Every article, drafts too, with votes and tickets avoided',
        security,
        response: { 200: staffHelpArticleListResponseSchema, ...errorResponses },
      },
    },
    async () => service.listForStaff(),
  );

  api.get(
    '/staff/help/articles/:id',
    {
      config: { auth: 'staff' },
      schema: {
        tags: staffTags,
        summary: 'One article as written',
        security,
        params: idParamsSchema,
        response: { 200: staffHelpArticleResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ article: await service.getForStaff(request.params.id) }),
  );

  api.post(
    '/staff/help/articles',
    {
      config: staffChange,
      schema: {
        tags: staffTags,
        summary: 'Write an article (409 when its address is taken)',
        security,
        body: helpArticleWriteBodySchema,
        response: { 201: staffHelpArticleResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send({ article: await service.create(request.body, request.auth!.userId!) }),
  );

  api.put(
    '/staff/help/articles/:id',
    {
      config: staffChange,
      schema: {
        tags: staffTags,
        summary: 'Change an article, publish or unpublish it',
        security,
        params: idParamsSchema,
        body: helpArticleWriteBodySchema,
        response: { 200: staffHelpArticleResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ article: await service.update(request.params.id, request.body, request.auth!.userId!) }),
  );

  api.get(
    '/staff/help/articles/:id/translations',
    {
      config: { auth: 'staff' },
      schema: {
        tags: staffTags,
        summary: "An article's translations into other languages than English",
        security,
        params: idParamsSchema,
        response: { 200: helpTranslationListResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ translations: await service.translations.list(request.params.id) }),
  );

  api.put(
    '/staff/help/articles/:id/translations/:locale',
    {
      config: staffChange,
      schema: {
        tags: staffTags,
        summary: "Write an article's translation into one language (es, ru, de), new or changed",
        security,
        params: helpTranslationParamsSchema,
        body: helpTranslationWriteBodySchema,
        response: { 200: helpTranslationResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      translation: await service.translations.put(request.params.id, request.params.locale, request.body, request.auth!.userId!),
    }),
  );

  api.delete(
    '/staff/help/articles/:id/translations/:locale',
    {
      config: staffChange,
      schema: {
        tags: staffTags,
        summary: "Remove an article's translation: readers of that language read it in English again",
        security,
        params: helpTranslationParamsSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await service.translations.remove(request.params.id, request.params.locale, request.auth!.userId!);
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/staff/help/preview',
    {
      // Renders only; changes nothing, so there is nothing to audit.
      config: { auth: 'staff', audited: true },
      schema: {
        tags: staffTags,
        summary: 'How Markdown will look, rendered exactly as readers will see it',
        security,
        body: helpPreviewBodySchema,
        response: { 200: helpPreviewResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ html: service.preview(request.body.body) }),
  );
}
