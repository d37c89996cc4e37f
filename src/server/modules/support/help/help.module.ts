import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerHelpRoutes } from './help.routes.js';
import { HelpService } from './help.service.js';

/** The help centre: articles, search, votes and ticket suggestions (docs/decisions/0290). */
export function registerHelpModule(api: FastifyInstance, ctx: AppContext): HelpService {
  const service = new HelpService({ db: ctx.database.db });
  registerHelpRoutes(api, ctx, service);
  return service;
}
