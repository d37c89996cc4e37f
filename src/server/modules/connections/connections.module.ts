import type { FastifyInstance } from 'fastify';
import type { AppContext } from '#server/context.js';
import { registerConnectionRoutes } from './connections.routes.js';
import { DiscordClient } from './discord.client.js';

/** Discord and Telegram connections: the Discord client for this configuration and the routes. */
export function registerConnectionsModule(api: FastifyInstance, ctx: AppContext): void {
  const { discord } = ctx.config;
  // The server's own calls to a sandbox use the loopback address it listens on.
  const client = new DiscordClient(discord, () => discord.apiBase ?? `${ctx.selfUrl()}/sandbox/discord/api`);
  registerConnectionRoutes(api, ctx, client);
}
