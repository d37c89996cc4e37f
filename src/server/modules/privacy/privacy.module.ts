import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { buildDataExport, DATA_EXPORT_JOB } from './data-export.service.js';
import { registerPrivacyRoutes } from './privacy.routes.js';

/**
 * A copy of my data (decision 0250): the routes, and the job that builds the ZIP. Its expired exports
 * are deleted by the maintenance module's prune job.
 */
export function registerPrivacyModule(api: FastifyInstance, ctx: AppContext): void {
  ctx.jobs.define<{ exportId: string }>({
    name: DATA_EXPORT_JOB,
    retryLimit: 2,
    expireInSeconds: 600,
    handler: async (data) => {
      await buildDataExport({ db: ctx.database.db, jobs: ctx.jobs, mail: ctx.mail, attachmentsDir: ctx.config.attachmentsDir }, data.exportId);
    },
  });
  registerPrivacyRoutes(api, ctx);
}
