import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerAdRoutes } from './ads.routes.js';
import { AdsService } from './ads.service.js';

/** Ads: the service (with its impression batcher) and the visitor and staff routes. */
export function registerAdsModule(api: FastifyInstance, ctx: AppContext): AdsService {
  const service = new AdsService(ctx.database.db, ctx.config.jwtSecret);
  registerAdRoutes(api, ctx, service);
  return service;
}
