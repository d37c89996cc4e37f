import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { NowPaymentsClient } from './nowpayments.client.js';
import { registerPaymentRoutes } from './payments.routes.js';
import { PaymentsService } from './payments.service.js';

export const RECONCILE_JOB = 'payments.reconcile';
/** Lists the provider's payments for re-deposits whose IPN was lost (docs/decisions/0122). */
export const REDEPOSIT_JOB = 'payments.discover-redeposits';

/** The NOWPayments client for this configuration: the real API, or the sandbox on this server. */
export function nowPaymentsClient(ctx: AppContext): NowPaymentsClient {
  const { apiKey, apiBase, login } = ctx.config.nowpayments;
  return new NowPaymentsClient({ apiKey, login, baseUrl: () => apiBase ?? `${ctx.selfUrl()}/sandbox/nowpayments/v1` });
}

/** Payments: routes under the API prefix, and the reconciliation job (every minute, once across instances). */
export function registerPaymentsModule(api: FastifyInstance, ctx: AppContext, delivery: { mail: MailService }): PaymentsService {
  const service = new PaymentsService({
    db: ctx.database.db,
    client: nowPaymentsClient(ctx),
    config: ctx.config.nowpayments,
    limitsUsd: ctx.config.depositLimitsUsd,
    // The sandbox lives in this process and calls back over loopback; a real provider needs PUBLIC_URL.
    ipnCallbackUrl: () => `${ctx.config.nowpayments.sandbox ? ctx.selfUrl() : ctx.config.publicUrl}/api/payments/ipn`,
    log: api.log,
    events: ctx.events,
    mail: delivery.mail,
    invalidation: ctx.invalidation,
  });
  registerPaymentRoutes(api, ctx, service);
  ctx.jobs.define({
    name: RECONCILE_JOB,
    cron: '* * * * *',
    expireInSeconds: 600,
    retryLimit: 1,
    handler: async () => {
      const result = await service.reconcile();
      if (result.checked > 0) api.log.info(result, 'payments reconciled');
    },
  });
  ctx.jobs.define({
    name: REDEPOSIT_JOB,
    cron: '*/5 * * * *',
    expireInSeconds: 600,
    retryLimit: 1,
    handler: async () => {
      await service.discoverRedeposits();
    },
  });
  return service;
}
