import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adForPlacementResponseSchema,
  adIdParamsSchema,
  adImageParamsSchema,
  adPlacementQuerySchema,
  adStatsQuerySchema,
  adStatsResponseSchema,
  createAdBodySchema,
  impressionResponseSchema,
  staffAdListResponseSchema,
  staffAdResponseSchema,
  updateAdBodySchema,
} from '#shared/schemas/ads.js';
import { errorResponses } from '#shared/schemas/common.js';
import { AD_PAID_GUEST_MIN_AGE_MS } from '#shared/ad-rules.js';
import { notFound } from '#server/errors.js';
import type { AppContext } from '#server/context.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { isBotUserAgent, type AdsService, type Viewer } from './ads.service.js';

/** docs/product.md#ads: impressions are throttled per viewer and per address. */
export const AD_LIMITS = {
  impressionsPerViewer: { name: 'ads:impression', limit: 60, windowSeconds: 60 },
  impressionsPerIp: { name: 'ads:impression-ip', limit: 600, windowSeconds: 60 },
  /** Over this, clicks still redirect (the visitor wants the page) but are not counted. */
  clicksPerViewer: { name: 'ads:click', limit: 30, windowSeconds: 60 },
} satisfies Record<string, RateLimitRule>;

function viewerOf(request: FastifyRequest): Viewer {
  const auth = request.auth;
  const userAgent = request.headers['user-agent'];
  return {
    userId: auth && !auth.isGuest ? auth.userId : null,
    guestId: auth?.isGuest ? auth.guestId : null,
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : '',
  };
}

/** Ads for visitors (/ads) and their management and statistics for staff (/staff/ads). */
export function registerAdRoutes(app: FastifyInstance, ctx: AppContext, service: AdsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['ads'];

  api.get(
    '/ads',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary:
          "One ad for a placement: an eligible campaign's approved creative for this viewer, else a live house ad (weighted random), or null",
        querystring: adPlacementQuerySchema,
        response: { 200: adForPlacementResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      // Each call may draw a different ad: never let a cache answer for us.
      reply.header('Cache-Control', 'no-store');
      const viewer = viewerOf(request);
      // Robots and guests minted minutes ago are not paid viewers: house ads only (docs/decisions/0302).
      const unpaid =
        isBotUserAgent(viewer.userAgent) ||
        (viewer.guestId !== null && !(await service.guestIsPaidViewer(request.auth!.sessionId, AD_PAID_GUEST_MIN_AGE_MS)));
      return { ad: await service.pickForPlacement(request.query.placement, service.viewerKey(viewer), unpaid) };
    },
  );

  api.post(
    '/ads/:id/impression',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Record a viewable impression (counted once per viewer per ad per 30 minutes, live ads only)',
        params: adIdParamsSchema,
        response: { 200: impressionResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const viewerKey = service.viewerKey(viewer);
      await ctx.rateLimiter.consume(AD_LIMITS.impressionsPerIp, request.ip);
      await ctx.rateLimiter.consume(AD_LIMITS.impressionsPerViewer, viewerKey);
      return {
        recorded: await service.recordImpression(
          request.params.id,
          viewerKey,
          isBotUserAgent(viewer.userAgent),
          service.addressKey(viewer),
        ),
      };
    },
  );

  api.get(
    '/ads/:id/click',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: "Record a click and redirect (302) to the ad's last approved target (404 for a creative never approved, or rejected)",
        params: adIdParamsSchema,
        response: { 302: z.null().describe('Redirect to the target'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const viewerKey = service.viewerKey(viewer);
      // Robots' clicks are never counted or charged.
      const allowed = !isBotUserAgent(viewer.userAgent) && (await ctx.rateLimiter.hit(AD_LIMITS.clicksPerViewer, viewerKey)).allowed;
      // Only the target staff last approved is ever a destination (docs/decisions/0302): nothing from the
      // request, and nothing an advertiser typed after the review.
      const { targetUrl } = allowed
        ? await service.recordClick(request.params.id, viewerKey, service.addressKey(viewer))
        : await service.targetOf(request.params.id);
      reply.header('Cache-Control', 'no-store');
      reply.header('Referrer-Policy', 'no-referrer');
      return reply.redirect(targetUrl, 302);
    },
  );

  api.get(
    '/ads/images/:id',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: "An approved ad's image: our copy, taken at approval (the advertiser's server never sees the viewer)",
        params: adImageParamsSchema,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const image = await service.image(request.params.id);
      if (!image) throw notFound('Image not found');
      return reply
        .headers({
          'content-type': image.contentType,
          'content-length': String(image.bytes.length),
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          // An id names one picture for ever: a changed image is a new review and a new id.
          'cache-control': 'public, max-age=31536000, immutable',
          'cross-origin-resource-policy': 'same-origin',
        })
        .send(image.bytes as never);
    },
  );

  const staff = { auth: 'staff' } as const;
  const staffTags = ['ads (staff)'];
  const security = [{ bearer: [] }];

  api.get(
    '/staff/ads',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Every ad, by placement',
        security,
        response: { 200: staffAdListResponseSchema, ...errorResponses },
      },
    },
    async () => ({ ads: await service.list() }),
  );

  api.post(
    '/staff/ads',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Create an ad',
        security,
        body: createAdBodySchema,
        response: { 201: staffAdResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send({ ad: await service.create(request.body, request.auth!.userId!) }),
  );

  api.put(
    '/staff/ads/:id',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Change an ad (any subset of its fields)',
        security,
        params: adIdParamsSchema,
        body: updateAdBodySchema,
        response: { 200: staffAdResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ ad: await service.update(request.params.id, request.body, request.auth!.userId!) }),
  );

  api.get(
    '/staff/ads/stats',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Impressions, unique viewers, clicks and click-through per ad and UTC day',
        security,
        querystring: adStatsQuerySchema,
        response: { 200: adStatsResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ stats: await service.stats(request.query.days, request.query.adId) }),
  );
}
