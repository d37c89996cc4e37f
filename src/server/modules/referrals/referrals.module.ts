import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { AuthService } from '#server/modules/auth/auth.service.js';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.js';
import { registerReferralRoutes, registerReferralSandboxControl } from './referrals.routes.js';
import { REFERRAL_PAYMENT_JOB, REFERRAL_RELEASE_JOB, ReferralsService } from './referrals.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The referral programme (tests move its clock and run its release). */
    referrals: ReferralsService;
  }
}

/**
 * Referrals that pay (docs/product.md#referrals, docs/decisions/0332): the referral row at registration,
 * a job per top-up that became final or was reversed (queued by the payment's change, in its transaction),
 * the every-minute release of held rewards, and the routes.
 */
export function registerReferralsModule(
  api: FastifyInstance,
  ctx: AppContext,
  deps: { auth: AuthService; notifications: NotificationsService },
): ReferralsService {
  const service = new ReferralsService({
    db: ctx.database.db,
    events: ctx.events,
    jobs: ctx.jobs,
    notifications: deps.notifications,
  });
  deps.auth.onRegistered((tx, user) => service.recordJoin(tx, user));
  ctx.events.subscribe({
    channel: 'referrals',
    types: ['payment.changed'],
    async handle(tx, event) {
      if (event.type !== 'payment.changed') return;
      await service.queuePayments(tx, [{ userId: event.userId, paymentId: event.payment.id, to: event.to }]);
    },
    async handleMany(tx, events) {
      const changes = events.flatMap((e) =>
        e.type === 'payment.changed' ? [{ userId: e.userId, paymentId: e.payment.id, to: e.to }] : [],
      );
      await service.queuePayments(tx, changes);
    },
  });
  ctx.jobs.define<{ paymentId: string }>({
    name: REFERRAL_PAYMENT_JOB,
    handler: async ({ paymentId }) => service.processPayment(paymentId),
  });
  ctx.jobs.define({
    name: REFERRAL_RELEASE_JOB,
    cron: '* * * * *',
    retryLimit: 0,
    handler: async () => void (await service.releaseDue()),
  });
  registerReferralRoutes(api, ctx, service);
  registerReferralSandboxControl(api, ctx, service);
  return service;
}
