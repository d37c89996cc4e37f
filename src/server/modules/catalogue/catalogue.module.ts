import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerCatalogueRoutes } from './catalogue.routes.js';
import { CatalogueService } from './catalogue.service.js';

/** The catalogue and orders. */
export function registerCatalogueModule(api: FastifyInstance, ctx: AppContext): CatalogueService {
  const service = new CatalogueService({
    db: ctx.database.db,
    events: ctx.events,
  });
  registerCatalogueRoutes(api, ctx, service);
  return service;
}
