import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { ChatChannel } from './chat-channel.js';
import { createChatChannels } from './channels/chat-channels.js';
import { NotificationDispatcher } from './dispatcher.js';
import { registerNotificationsRoutes } from './notifications.routes.js';
import { NotificationStreamHub } from './stream-hub.js';

export interface NotificationsModuleDeps {
  /**
   * The chat apps notices go to. Unset: the real Telegram and Discord clients (against the local
   * sandboxes without credentials); tests may pass their own, or none for in-app and email only.
   */
  chatChannels?: ChatChannel[];
}

/**
 * Notifications: the dispatcher's job (chat deliveries), the streams of this instance, guests' notices
 * moved to the account they sign in to, and the routes. `NotificationsService` itself is shared: the
 * core builds it into the context (`ctx.notifications`) for every module where an event happens.
 */
export function registerNotificationsModule(api: FastifyInstance, ctx: AppContext, deps: NotificationsModuleDeps): NotificationDispatcher {
  const dispatcher = new NotificationDispatcher({
    database: ctx.database,
    jobs: ctx.jobs,
    notifications: ctx.notifications,
    channels: deps.chatChannels ?? createChatChannels(ctx),
    publicUrl: ctx.config.publicUrl,
    log: api.log,
  });
  dispatcher.defineJobs();
  // balance.low: the ledger reports every balance change as `credits.changed`, in its transaction.
  ctx.webhookEvents.observe(async (tx, userId, event, payload) => {
    if (event !== 'credits.changed') return;
    await ctx.notifications.onBalanceChanged(
      tx,
      userId,
      String(payload.entryId),
      Number(payload.amountCents),
      Number(payload.balanceCents),
    );
  });
  ctx.guestLinkers.push((tx, guestId, userId) => ctx.notifications.linkGuest(tx, guestId, userId));
  const hub = new NotificationStreamHub(ctx.invalidation);
  api.addHook('preClose', async () => hub.stop());
  registerNotificationsRoutes(api, { notifications: ctx.notifications, hub, rateLimiter: ctx.rateLimiter });
  return dispatcher;
}
