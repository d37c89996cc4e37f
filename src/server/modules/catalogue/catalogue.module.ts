import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerCatalogueRoutes } from './catalogue.routes.js';
import type { CatalogueService } from './catalogue.service.js';

/** The catalogue and orders (its routes build the service). */
export function registerCatalogueModule(api: FastifyInstance, ctx: AppContext): CatalogueService {
  return registerCatalogueRoutes(api, ctx);
}
