import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { buildDataExport, DATA_EXPORT_TASK } from './data-export.service.js';
import { registerPrivacyRoutes } from './privacy.routes.js';

/**
 * A copy of my data (decision 0250): the routes, and the job that builds the ZIP. Its expired exports
 * are deleted by the maintenance module's prune job.
 */
export function registerPrivacyModule(api: FastifyInstance, ctx: AppContext, delivery: { mail: MailService }): void {
  const { mail } = delivery;
  // A task of the mail queue: background work that ends in a mail, without a pg-boss queue of its own.
  mail.defineTask(DATA_EXPORT_TASK, async (data) => {
    await buildDataExport({ db: ctx.database.db, mail, attachmentsDir: ctx.config.attachmentsDir }, String(data.exportId));
  });
  registerPrivacyRoutes(api, ctx, mail);
}
