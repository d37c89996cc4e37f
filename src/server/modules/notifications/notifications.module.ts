import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import type { ChatChannel } from './chat-channel.js';
import { createChatChannels } from './channels/chat-channels.js';
import { NotificationDispatcher } from './dispatcher.js';
import { noticeSubscribers } from './notice-subscriber.js';
import { registerNotificationsRoutes } from './notifications.routes.js';
import type { NotificationsService } from './notifications.service.js';
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
 * moved to the account they sign in to, the routes, and the notice of each domain event. The
 * `NotificationsService` is built by the core; app.ts hands it here and to the few modules that send a
 * notice directly (decision 0322).
 */
export function registerNotificationsModule(
  api: FastifyInstance,
  ctx: AppContext,
  notifications: NotificationsService,
  deps: NotificationsModuleDeps,
): NotificationDispatcher {
  const dispatcher = new NotificationDispatcher({
    database: ctx.database,
    jobs: ctx.jobs,
    notifications: notifications,
    channels: deps.chatChannels ?? createChatChannels(ctx),
    publicUrl: ctx.config.publicUrl,
    log: api.log,
  });
  dispatcher.defineJobs();
  // The notice of each domain event, and balance.low on every balance change (notice-subscriber.ts).
  for (const subscriber of noticeSubscribers(notifications)) ctx.events.subscribe(subscriber);
  ctx.guestLinkers.push((tx, guestId, userId) => notifications.linkGuest(tx, guestId, userId));
  const hub = new NotificationStreamHub(ctx.invalidation);
  api.addHook('preClose', async () => hub.stop());
  registerNotificationsRoutes(api, { notifications: notifications, hub, rateLimiter: ctx.rateLimiter });
  return dispatcher;
}
