import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerExchangeRoutes } from './exchange.routes.js';
import { ExchangeService, moveGuestExchangesToUser } from './exchange.service.js';
import { GuestClaimsService } from './guest-claims.service.js';
import { SwapClient } from './swap.client.js';

/** Asks the provider about unfinished exchanges (every minute, once across instances), or about one. */
export const EXCHANGE_SYNC_JOB = 'exchange.sync';

// One service per app: tests run several apps in one process, so no module-level singleton.
const services = new WeakMap<AppContext, ExchangeService>();

/** The swap provider client for this configuration: the real API, or the sandbox on this server. */
export function swapClient(ctx: AppContext): SwapClient {
  const { apiKey, apiBase } = ctx.config.swap;
  return new SwapClient({ apiKey, baseUrl: () => apiBase ?? `${ctx.selfUrl()}/sandbox/swap/v1` });
}

/** Exchange and guest rewards: routes under the API prefix, the status poller, and the guest linker. */
export function registerExchangeModule(api: FastifyInstance, ctx: AppContext): ExchangeService {
  const service = new ExchangeService({
    db: ctx.database.db,
    client: swapClient(ctx),
    rewardPercent: ctx.config.rewardPercent,
    log: api.log,
    events: ctx.events,
  });
  const claims = new GuestClaimsService({ db: ctx.database.db, rateLimiter: ctx.rateLimiter, log: api.log, exchange: service });
  services.set(ctx, service);
  ctx.guestLinkers.push(moveGuestExchangesToUser);
  registerExchangeRoutes(api, ctx, service, claims);
  ctx.jobs.define<{ providerExchangeId?: string }>({
    name: EXCHANGE_SYNC_JOB,
    cron: '* * * * *',
    expireInSeconds: 600,
    retryLimit: 1,
    handler: async (data) => {
      if (data.providerExchangeId) {
        await service.syncByProviderId(data.providerExchangeId, 'poll');
        return;
      }
      const result = await service.pollUnfinished();
      if (result.checked > 0) api.log.info(result, 'exchanges polled');
      await claims.creditUnredeemedLinkedClaims();
    },
  });
  return service;
}

/**
 * The sandbox's control endpoint nudges the app right after it moves an exchange (the real provider
 * has no webhooks; the poller would find the change within a minute). Answers the app's status now.
 */
export async function nudgeExchangeSync(ctx: AppContext, providerExchangeId: string): Promise<string | null> {
  const service = services.get(ctx);
  if (!service) return null;
  const row = await service.syncByProviderId(providerExchangeId, 'sandbox');
  return row?.status ?? null;
}
