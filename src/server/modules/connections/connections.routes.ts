import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '#shared/routes.js';
import {
  connectDiscordBodySchema,
  connectDiscordResponseSchema,
  connectTelegramBodySchema,
  connectTelegramResponseSchema,
  disconnectResponseSchema,
  discordAuthorizeUrlResponseSchema,
  discordExchangeBodySchema,
  discordIdentitySchema,
  telegramConfigResponseSchema,
  verifyTelegramBodySchema,
  verifyTelegramResponseSchema,
} from '#shared/schemas/connections.js';
import { errorResponses } from '#shared/schemas/common.js';
import type { AppContext } from '#server/context.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import {
  connectDiscord,
  connectTelegram,
  consumeOAuthState,
  disconnect,
  issueOAuthState,
  markLoginProofUsed,
  rememberVerification,
} from './connections.service.js';
import { DISCORD_AUTHORIZE_PATH, DISCORD_SANDBOX_AUTHORIZE_PATH, type DiscordClient } from './discord.client.js';
import { checkTelegramLogin, TELEGRAM_AUTH_MAX_AGE_S, TELEGRAM_SANDBOX_LOGIN_PATH } from './telegram-login.js';

/** Each attempt reaches an outside provider or writes a row: bounded per account. */
const CONNECT_ATTEMPTS: RateLimitRule = { name: 'connect:user', limit: 30, windowSeconds: 10 * 60 };

/** Discord and Telegram connections (docs/product.md#api, docs/product.md#accounts). */
export function registerConnectionRoutes(app: FastifyInstance, ctx: AppContext, discord: DiscordClient): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config } = ctx;
  const db = ctx.database.db;
  const security = [{ bearer: [] }];
  const tags = ['connections'];

  // The browser follows authorize and callback URLs, so they use PUBLIC_URL.
  const discordAuthorizeBase = config.discord.sandbox
    ? `${config.publicUrl}${DISCORD_SANDBOX_AUTHORIZE_PATH}`
    : `${config.discord.apiBase}${DISCORD_AUTHORIZE_PATH}`;
  const discordRedirectUri = `${config.publicUrl}${paths.discordCallback}`;
  const telegramAuthUrl = `${config.publicUrl}${paths.telegramCallback}`;

  api.get(
    '/auth/discord/authorize-url',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Discord authorize URL with a state bound to this session',
        security,
        response: { 200: discordAuthorizeUrlResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.auth!;
      await ctx.rateLimiter.consume(CONNECT_ATTEMPTS, caller.userId!);
      const state = await issueOAuthState(db, caller.sessionId, 'discord', discordRedirectUri);
      return { url: discord.authorizeUrl(discordAuthorizeBase, discordRedirectUri, state) };
    },
  );

  api.post(
    '/auth/discord-exchange',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Swap a Discord authorization code (state checked) for the account it belongs to',
        security,
        body: discordExchangeBodySchema,
        response: { 200: discordIdentitySchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.auth!;
      // The state is spent before Discord is called: a code that fails cannot be retried with it.
      const redirectUri = await consumeOAuthState(db, caller.sessionId, 'discord', request.body.state);
      const accessToken = await discord.exchangeCode(request.body.code, redirectUri);
      const user = await discord.fetchCurrentUser(accessToken);
      // Joining the product's server (guilds.join) is what lets the bot send direct messages. A refusal
      // does not stop the connection; Discord notifications then say why they were turned off.
      const joined = await discord.joinGuild(user.id, accessToken);
      if (joined !== 'joined' && joined !== 'already-member' && joined !== 'no-bot')
        request.log.warn({ discordGuildJoin: joined }, 'Discord did not add the user to the server');
      await rememberVerification(db, caller.sessionId, 'discord', user.id, { username: user.username, avatar: user.avatar });
      return { id: user.id, username: user.username, avatar: user.avatar };
    },
  );

  api.post(
    '/users/connect/discord',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Connect the Discord account verified for this session',
        security,
        body: connectDiscordBodySchema,
        response: { 200: connectDiscordResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.auth!;
      const identity = await connectDiscord(db, caller.sessionId, caller.userId!, request.body.discordId);
      return { discord: identity };
    },
  );

  api.delete(
    '/users/disconnect/discord',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Disconnect the Discord account', security, response: { 200: disconnectResponseSchema, ...errorResponses } },
    },
    async (request) => {
      await disconnect(db, request.auth!.userId!, 'discord');
      return { message: 'Discord account disconnected' };
    },
  );

  api.get(
    '/auth/telegram/config',
    {
      schema: {
        tags,
        summary: 'Telegram Login Widget settings (or the sandbox login page)',
        response: { 200: telegramConfigResponseSchema, ...errorResponses },
      },
    },
    async () => {
      let sandboxLoginUrl: string | null = null;
      if (config.telegram.sandbox) {
        // The same parameters Telegram's own login page receives from the widget.
        const url = new URL(`${config.publicUrl}${TELEGRAM_SANDBOX_LOGIN_PATH}`);
        // request_access=write, as the Login Widget's data-request-access="write": the bot may then message them.
        url.search = new URLSearchParams({
          bot_id: config.telegram.botToken.split(':')[0] ?? '',
          origin: config.publicUrl,
          request_access: 'write',
          return_to: telegramAuthUrl,
        }).toString();
        sandboxLoginUrl = url.toString();
      }
      return { botName: config.telegram.botName, authUrl: telegramAuthUrl, sandboxLoginUrl };
    },
  );

  api.post(
    '/auth/verify-telegram',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Check a Telegram Login Widget payload (hash and age) and remember it for this session',
        security,
        body: verifyTelegramBodySchema,
        response: { 200: verifyTelegramResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.auth!;
      await ctx.rateLimiter.consume(CONNECT_ATTEMPTS, caller.userId!);
      const body = request.body;
      const fields = {
        id: body.id,
        first_name: body.first_name,
        last_name: body.last_name,
        username: body.username,
        photo_url: body.photo_url,
        auth_date: body.auth_date,
        hash: body.hash,
      };
      const check = checkTelegramLogin(config.telegram.botToken, fields);
      if (check !== 'ok') return { verified: false, reason: check };
      const validUntil = new Date((Number(body.auth_date) + TELEGRAM_AUTH_MAX_AGE_S) * 1000);
      if (!(await markLoginProofUsed(db, 'telegram', body.hash, validUntil))) return { verified: false, reason: 'reused' as const };
      const profile = { username: body.username ?? null, firstName: body.first_name ?? null, lastName: body.last_name ?? null };
      await rememberVerification(db, caller.sessionId, 'telegram', body.id, profile);
      return { verified: true, id: body.id, ...profile };
    },
  );

  api.post(
    '/users/connect/telegram',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Connect the Telegram account verified for this session',
        security,
        body: connectTelegramBodySchema,
        response: { 200: connectTelegramResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.auth!;
      const identity = await connectTelegram(db, caller.sessionId, caller.userId!, request.body.telegramId);
      return { telegram: identity };
    },
  );

  api.delete(
    '/users/disconnect/telegram',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Disconnect the Telegram account',
        security,
        response: { 200: disconnectResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await disconnect(db, request.auth!.userId!, 'telegram');
      return { message: 'Telegram account disconnected' };
    },
  );
}
