import { createCore, type App, type AppDeps } from './http/core.js';
import { registerRequestGuards } from './http/guards.js';
import { mountApi, mountSandboxes } from './http/scopes.js';
import { serveWebApp } from './http/web-app.js';
import { registerAccountClosureModule } from './modules/account-closure/account-closure.module.js';
import { registerAdminModule } from './modules/admin/admin.module.js';
import { registerAdsModule } from './modules/ads/ads.module.js';
import { registerApiKeysModule } from './modules/api-keys/api-keys.module.js';
import { registerAuthModule } from './modules/auth/auth.module.js';
import { registerCatalogueModule } from './modules/catalogue/catalogue.module.js';
import { registerChargesModule } from './modules/charges/charges.module.js';
import { registerConnectionsModule } from './modules/connections/connections.module.js';
import { registerCreditsModule } from './modules/credits/credits.module.js';
import { registerExchangeModule } from './modules/exchange/exchange.module.js';
import { registerHealthModule } from './modules/health/health.module.js';
import { registerMailModule } from './modules/mail/mail.module.js';
import { registerMaintenanceModule } from './modules/maintenance/maintenance.module.js';
import { registerNotificationsModule } from './modules/notifications/notifications.module.js';
import { registerPaymentsModule } from './modules/payments/payments.module.js';
import { registerPrivacyModule } from './modules/privacy/privacy.module.js';
import { registerReceiptsModule } from './modules/receipts/receipts.module.js';
import { registerReferralsModule } from './modules/referrals/referrals.module.js';
import type { ReferralsService } from './modules/referrals/referrals.service.js';
import { registerStatusModule } from './modules/status/status.module.js';
import { registerSupportModule } from './modules/support/support.module.js';
import { registerTwoFactorModule } from './modules/two-factor/two-factor.module.js';
import { registerUsersModule } from './modules/users/users.module.js';
import { registerWebhooksModule } from './modules/webhooks/webhooks.module.js';

export type { App, AppDeps };

/**
 * Builds the whole application: the core (Fastify, its plumbing and the shared services), then the
 * modules in order (docs/decisions/0220). server.ts only listens and shuts down; tests call this too.
 */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { app, ctx, delivery } = await createCore(deps);

  // On the root: the probes, then the checks every route passes (set before any route), then jobs.
  registerHealthModule(app, ctx);
  const guards = registerRequestGuards(app, ctx);
  registerMaintenanceModule(app, ctx);

  let referrals: ReferralsService | undefined;
  await mountApi(app, ctx, (api) => {
    const auth = registerAuthModule(api, ctx, delivery);
    registerTwoFactorModule(api, ctx, auth, guards.stepUp, delivery);
    registerUsersModule(api, ctx, auth);
    registerAccountClosureModule(api, ctx, auth, delivery);
    registerConnectionsModule(api, ctx);
    registerSupportModule(api, ctx, delivery);
    registerCreditsModule(api, ctx);
    registerReceiptsModule(api, ctx);
    registerApiKeysModule(api, ctx, guards.apiKeys);
    registerChargesModule(api, ctx);
    const payments = registerPaymentsModule(api, ctx, delivery);
    const exchange = registerExchangeModule(api, ctx);
    registerAdminModule(api, ctx, { payments, exchange });
    registerAdsModule(api, ctx, { imageFetcher: deps.adImageFetcher });
    registerStatusModule(api, ctx, delivery);
    registerWebhooksModule(api, ctx, delivery.webhookEvents);
    registerMailModule(api, ctx, delivery.mail);
    registerNotificationsModule(api, ctx, delivery.notifications, { chatChannels: deps.chatChannels });
    registerCatalogueModule(api, ctx);
    registerPrivacyModule(api, ctx, delivery);
    // Last: its subscription to payments runs after the webhook, mail and notice ones (docs/architecture.md#domain-events).
    referrals = registerReferralsModule(api, ctx, { auth, notifications: delivery.notifications });
  });

  app.decorate('referrals', referrals!);

  await mountSandboxes(app, ctx);
  await serveWebApp(app, ctx);
  return app;
}
