import type { AppContext } from '#server/context.js';
import type { ChatChannel } from '#server/modules/notifications/chat-channel.js';
import { DiscordChannel } from './discord.channel.js';
import { TelegramChannel } from './telegram.channel.js';

/**
 * The chat channels this configuration can deliver to: Telegram always (the Login Widget's bot is the
 * sender), Discord when a bot and server are configured (docs/providers.md). Without real credentials they
 * call this server's own sandboxes, at the loopback address it listens on.
 */
export function createChatChannels(ctx: AppContext): ChatChannel[] {
  const { telegram, discord } = ctx.config;
  const db = ctx.database.db;
  const channels: ChatChannel[] = [
    new TelegramChannel({ db, botToken: telegram.botToken, apiBase: () => telegram.apiBase ?? `${ctx.selfUrl()}/sandbox/telegram` }),
  ];
  if (discord.bot) {
    channels.push(
      new DiscordChannel({ db, botToken: discord.bot.token, apiBase: () => discord.apiBase ?? `${ctx.selfUrl()}/sandbox/discord/api` }),
    );
  }
  return channels;
}
