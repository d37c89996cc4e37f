import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import type { AuthService } from '#server/modules/auth/auth.service.js';
import { exportStore } from '#server/modules/privacy/data-export.service.js';
import { AttachmentStore } from '#server/modules/support/tickets/attachments.js';
import { registerAccountClosureRoutes } from './account-closure.routes.js';
import { AccountClosureService } from './account-closure.service.js';
import { dueErasures, eraseAccount } from './erasure.js';

export const ERASURE_JOB = 'accounts.erase-due';

/**
 * Closing accounts (decision 0255): the closing dialog's calls, restoring, the staff console's list and
 * "erase now", and the job that erases accounts whose 14 days are over.
 */
export function registerAccountClosureModule(
  api: FastifyInstance,
  ctx: AppContext,
  auth: AuthService,
  delivery: { mail: MailService },
): AccountClosureService {
  const erasure = {
    attachments: new AttachmentStore(ctx.config.attachmentsDir),
    exports: exportStore(ctx.config.attachmentsDir),
    events: ctx.events,
  };
  const service = new AccountClosureService({
    database: ctx.database,
    rateLimiter: ctx.rateLimiter,
    sessions: api.sessions,
    mail: delivery.mail,
    events: ctx.events,
    auth,
    erasure,
  });
  ctx.jobs.define({
    name: ERASURE_JOB,
    cron: '*/5 * * * *',
    expireInSeconds: 600,
    retryLimit: 1,
    handler: async () => {
      // One account after another; a failure leaves that account for the next tick (its steps are idempotent).
      for (const userId of await dueErasures(ctx.database)) {
        try {
          await eraseAccount({ ...erasure, database: ctx.database }, userId);
        } catch (err) {
          api.log.error({ err, userId }, 'account erasure stopped; the next run resumes it');
        }
      }
    },
  });
  registerAccountClosureRoutes(api, service);
  return service;
}
