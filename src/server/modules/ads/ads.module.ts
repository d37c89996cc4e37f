import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerAdRoutes } from './ads.routes.js';
import { AdImageStore, httpImageFetcher, type AdImageFetcher } from './ad-images.js';
import { AdsService } from './ads.service.js';
import { registerCampaignRoutes } from './campaigns.routes.js';
import { CampaignsService } from './campaigns.service.js';

export const END_CAMPAIGNS_JOB = 'ads.end-campaigns';

/**
 * Ads: the service (with its impression batcher), self-serve campaigns, the visitor, advertiser and staff
 * routes, and the job that ends campaigns past their dates or out of budget and refunds what is left.
 * Answers the services; `campaigns.endCampaignsOfUser(tx, userId)` is for closing an account.
 */
export function registerAdsModule(
  api: FastifyInstance,
  ctx: AppContext,
  options: { imageFetcher?: AdImageFetcher } = {},
): { ads: AdsService; campaigns: CampaignsService } {
  // Approved images are fetched with the webhooks' outbound-request safety (docs/decisions/0303).
  const images = new AdImageStore(options.imageFetcher ?? httpImageFetcher({ allowPrivate: ctx.config.webhooks.allowPrivateTargets }));
  const service = new AdsService(ctx.database.db, ctx.config.jwtSecret, images);
  const campaigns = new CampaignsService(ctx.database.db, ctx.events, images);
  registerAdRoutes(api, ctx, service);
  registerCampaignRoutes(api, ctx, campaigns);
  ctx.jobs.define({
    name: END_CAMPAIGNS_JOB,
    cron: '* * * * *',
    expireInSeconds: 300,
    retryLimit: 1,
    handler: async () => {
      const ended = await campaigns.endDueCampaigns();
      if (ended > 0) api.log.info({ ended }, 'ended ad campaigns and refunded what they left');
    },
  });
  return { ads: service, campaigns };
}
