import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  campaignIdParamsSchema,
  campaignListResponseSchema,
  campaignReportQuerySchema,
  campaignReportResponseSchema,
  campaignResponseSchema,
  createCampaignBodySchema,
  createHouseCampaignBodySchema,
  creativeBodySchema,
  creativeParamsSchema,
  rejectCreativeBodySchema,
  reviewDecisionResponseSchema,
  reviewQueueResponseSchema,
} from '#shared/schemas/ads.js';
import { errorResponses, idParamsSchema } from '#shared/schemas/common.js';
import type { AppContext } from '#server/context.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import type { CampaignsService } from './campaigns.service.js';

/** docs/product.md#ads: creating campaigns is throttled per account. */
export const CAMPAIGN_LIMITS = {
  create: { name: 'ads:campaign-create', limit: 20, windowSeconds: 3600 },
} satisfies Record<string, RateLimitRule>;

const CSV_DESCRIPTION =
  'Columns: day, creative_id, creative, served, viewable, invalid, invalid_robot, invalid_over_cap, invalid_unmatched, clicks, ctr, spend (credits). ' +
  'The three invalid_ columns say why impressions were invalid (a known robot, past the frequency cap, no serve within the window ' +
  'or already counted); days tallied before they were kept count less than invalid. ' +
  'Text cells that a spreadsheet would read as a formula start with an apostrophe. Answered as an attachment.';

function sendCsv(reply: FastifyReply, id: string, csv: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="olympus-campaign-${id}.csv"`)
    .header('cache-control', 'no-store')
    .serializer((payload: unknown) => String(payload))
    .send(csv);
}

/** Self-serve campaigns (/ad-campaigns, the owner's) and their review and reports for staff (/staff/ad-...). */
export function registerCampaignRoutes(app: FastifyInstance, ctx: AppContext, service: CampaignsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['ad campaigns'];
  const security = [{ bearer: [] }];
  const user = { auth: 'user' } as const;

  api.get(
    '/ad-campaigns',
    {
      config: user,
      schema: {
        tags,
        summary: 'My ad campaigns, newest first',
        security,
        response: { 200: campaignListResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ campaigns: await service.listOwn(requireUserId(request)) }),
  );

  api.post(
    '/ad-campaigns',
    {
      config: user,
      schema: {
        tags,
        summary: 'Create a campaign and reserve its budget from my balance',
        description:
          'The budget is taken at once (a spend entry); what the campaign does not spend comes back when it ends. Sending the same requestId again answers the same campaign (200) without charging again.',
        security,
        body: createCampaignBodySchema,
        response: { 200: campaignResponseSchema, 201: campaignResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const userId = requireUserId(request);
      await ctx.rateLimiter.consume(CAMPAIGN_LIMITS.create, userId);
      const { campaign, created } = await service.create(userId, request.body);
      return reply.status(created ? 201 : 200).send({ campaign });
    },
  );

  api.get(
    '/ad-campaigns/:id',
    {
      config: user,
      schema: {
        tags,
        summary: 'One of my campaigns',
        security,
        params: campaignIdParamsSchema,
        response: { 200: campaignResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ campaign: await service.getOwn(requireUserId(request), request.params.id) }),
  );

  api.post(
    '/ad-campaigns/:id/pause',
    {
      config: user,
      schema: {
        tags,
        summary: 'Pause my campaign (nothing is served or charged until it resumes)',
        security,
        params: campaignIdParamsSchema,
        response: { 200: campaignResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ campaign: await service.pause(requireUserId(request), request.params.id) }),
  );

  api.post(
    '/ad-campaigns/:id/resume',
    {
      config: user,
      schema: {
        tags,
        summary: 'Resume my paused campaign',
        security,
        params: campaignIdParamsSchema,
        response: { 200: campaignResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ campaign: await service.resume(requireUserId(request), request.params.id) }),
  );

  api.post(
    '/ad-campaigns/:id/stop',
    {
      config: user,
      schema: {
        tags,
        summary: 'Stop my campaign for good; what it did not spend comes back as a refund',
        security,
        params: campaignIdParamsSchema,
        response: { 200: campaignResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ campaign: await service.stop(requireUserId(request), request.params.id) }),
  );

  api.put(
    '/ad-campaigns/:id/creatives/:creativeId',
    {
      config: user,
      schema: {
        tags,
        summary: 'Change a creative of my campaign (it waits for review again)',
        security,
        params: creativeParamsSchema,
        body: creativeBodySchema,
        response: { 200: campaignResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      campaign: await service.updateCreative(requireUserId(request), request.params.id, request.params.creativeId, request.body),
    }),
  );

  api.get(
    '/ad-campaigns/:id/report',
    {
      config: user,
      schema: {
        tags,
        summary: 'My campaign per UTC day and creative: served, viewable, invalid, clicks, CTR, spend',
        security,
        params: campaignIdParamsSchema,
        querystring: campaignReportQuerySchema,
        response: { 200: campaignReportResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.report(requireUserId(request), request.params.id, request.query.days),
  );

  api.get(
    '/ad-campaigns/:id/report.csv',
    {
      config: user,
      schema: {
        tags,
        summary: 'My campaign report as CSV',
        description: CSV_DESCRIPTION,
        security,
        params: campaignIdParamsSchema,
        querystring: campaignReportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) =>
      sendCsv(reply, request.params.id, await service.reportCsv(requireUserId(request), request.params.id, request.query.days)),
  );

  // ---- Staff ------------------------------------------------------------------------------------------

  const staffTags = ['ad campaigns (staff)'];
  const staff = { auth: 'staff' } as const;
  const staffChange = { auth: 'staff', audited: true } as const;

  api.get(
    '/staff/ad-campaigns',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Every campaign, newest first',
        security,
        response: { 200: campaignListResponseSchema, ...errorResponses },
      },
    },
    async () => ({ campaigns: await service.listAll() }),
  );

  // House campaigns (docs/decisions/0283): admins only; the creation writes its own audit entry, the
  // pause, resume and stop are logged by the staff audit hook.
  const admin = { auth: 'admin' } as const;

  api.post(
    '/staff/ad-campaigns',
    {
      config: { auth: 'admin', audited: true },
      schema: {
        tags: staffTags,
        summary: 'Create a house campaign (no balance is reserved; its creatives are approved by the creating admin)',
        description:
          'The budget is optional and counted, never paid. House campaigns are served only where no paid campaign is eligible. Sending the same requestId again answers the same campaign (200).',
        security,
        body: createHouseCampaignBodySchema,
        response: { 200: campaignResponseSchema, 201: campaignResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { campaign, created } = await service.createHouse(requireUserId(request), request.body);
      return reply.status(created ? 201 : 200).send({ campaign });
    },
  );

  for (const action of ['pause', 'resume', 'stop'] as const) {
    api.post(
      `/staff/ad-campaigns/:id/${action}`,
      {
        config: admin,
        schema: {
          tags: staffTags,
          summary: `${action === 'pause' ? 'Pause' : action === 'resume' ? 'Resume' : 'Stop for good'} a house campaign (a paid campaign is its owner's: 404)`,
          security,
          params: campaignIdParamsSchema,
          response: { 200: campaignResponseSchema, ...errorResponses },
        },
      },
      async (request) => ({ campaign: await service.changeHouse(request.params.id, action) }),
    );
  }

  api.get(
    '/staff/ad-campaigns/:id/report',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Any campaign per UTC day and creative',
        security,
        params: campaignIdParamsSchema,
        querystring: campaignReportQuerySchema,
        response: { 200: campaignReportResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.report(null, request.params.id, request.query.days),
  );

  api.get(
    '/staff/ad-campaigns/:id/report.csv',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Any campaign report as CSV',
        description: CSV_DESCRIPTION,
        security,
        params: campaignIdParamsSchema,
        querystring: campaignReportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => sendCsv(reply, request.params.id, await service.reportCsv(null, request.params.id, request.query.days)),
  );

  api.get(
    '/staff/ad-reviews',
    {
      config: staff,
      schema: {
        tags: staffTags,
        summary: 'Creatives waiting for review, oldest first',
        security,
        response: { 200: reviewQueueResponseSchema, ...errorResponses },
      },
    },
    async () => ({ items: await service.reviewQueue() }),
  );

  api.post(
    '/staff/ad-reviews/:id/approve',
    {
      config: staffChange,
      schema: {
        tags: staffTags,
        summary: 'Approve a waiting creative (it can be served from now on)',
        security,
        params: idParamsSchema,
        response: { 200: reviewDecisionResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.review(request.params.id, { approve: true }, requireUserId(request)),
  );

  api.post(
    '/staff/ad-reviews/:id/reject',
    {
      config: staffChange,
      schema: {
        tags: staffTags,
        summary: 'Reject a waiting creative with a reason the advertiser sees; a campaign left without creatives ends and is refunded',
        security,
        params: idParamsSchema,
        body: rejectCreativeBodySchema,
        response: { 200: reviewDecisionResponseSchema, ...errorResponses },
      },
    },
    async (request) => service.review(request.params.id, { approve: false, reason: request.body.reason }, requireUserId(request)),
  );
}
