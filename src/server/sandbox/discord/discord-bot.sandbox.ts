import { createHash, randomInt } from 'node:crypto';
import { and, count, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.js';
import {
  discordSandboxDmChannels,
  discordSandboxGrants,
  discordSandboxMembers,
  discordSandboxMessages,
  discordSandboxUsers,
  type DiscordSandboxMode,
} from './discord-sandbox.tables.js';
import { escapeHtml, sendSandboxPage } from './html-page.js';

/** Messages older than this are deleted when a new one is recorded (the sandbox's record only grows otherwise). */
const SANDBOX_MESSAGES_KEPT_DAYS = 7;
const LIST_LIMIT = 200;
const CONTENT_LIMIT = 2000;
/** Discord's bucket for sending messages in one channel: 5 per 5 seconds. */
export const DISCORD_SANDBOX_BUCKET = { limit: 5, windowMs: 5_000 };

const snowflake = z.string().regex(/^\d{1,20}$/, 'A Discord id');
export const discordModeSchema = z.object({
  mode: z.enum(['normal', 'refuse', 'rate-limited', 'unavailable']),
  retryAfter: z.number().int().min(1).max(3600).optional(),
});

/** A new snowflake-like id (milliseconds since Discord's epoch, shifted, plus randomness). */
function newSnowflake(): string {
  return ((BigInt(Date.now() - 1_420_070_400_000) << 22n) | BigInt(randomInt(0, 1 << 22))).toString();
}

function discordError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.status(status).send({ message, code });
}

/**
 * The part of Discord's bot API the product uses (docs/providers.md): adding a user to the server with
 * their `guilds.join` token, opening a DM channel and sending a message in it. It answers as Discord does:
 * 50007 when the user shares no server with the bot (or by the switch), per-channel buckets of 5 messages
 * per 5 seconds with `X-RateLimit-*` headers and 429 `retry_after`. What the bot sent is kept, listed at
 * `/sandbox/discord/messages` and on the sandbox page.
 */
export function registerDiscordBotSandbox(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const bot = ctx.config.discord.bot;
  if (!bot) return;
  const botUser = {
    id: '100000000000000001',
    username: 'olympus_sandbox_bot',
    bot: true,
    discriminator: '0',
    avatar: null,
    global_name: 'Olympus',
  };

  const isBot = (request: FastifyRequest) => request.headers.authorization === `Bot ${bot.token}`;

  api.put(
    '/discord/api/guilds/:guildId/members/:userId',
    { schema: { hide: true, params: z.object({ guildId: z.string().max(30), userId: z.string().max(30) }) } },
    async (request, reply) => {
      if (!isBot(request)) return discordError(reply, 401, 0, '401: Unauthorized');
      const { guildId, userId } = request.params;
      if (guildId !== bot.guildId) return discordError(reply, 404, 10004, 'Unknown Guild');
      const accessToken = (request.body as { access_token?: unknown } | undefined)?.access_token;
      const [grant] =
        typeof accessToken === 'string'
          ? await db
              .select()
              .from(discordSandboxGrants)
              .where(and(eq(discordSandboxGrants.accessToken, accessToken), gt(discordSandboxGrants.tokenExpiresAt, sql`now()`)))
              .limit(1)
          : [];
      if (!grant || grant.discordUserId !== userId) return discordError(reply, 403, 50025, 'Invalid OAuth2 access token');
      if (!grant.scope.split(/\s+/).includes('guilds.join')) return discordError(reply, 403, 50001, 'Missing Access');
      const added = await db.insert(discordSandboxMembers).values({ guildId, userId }).onConflictDoNothing().returning();
      if (!added.length) return reply.status(204).send();
      return reply.status(201).send({
        user: { id: userId, username: grant.username, avatar: grant.avatar, discriminator: '0', global_name: grant.username },
        nick: null,
        roles: [],
        joined_at: added[0]!.joinedAt.toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
        pending: false,
      });
    },
  );

  api.post('/discord/api/users/@me/channels', { schema: { hide: true } }, async (request, reply) => {
    if (!isBot(request)) return discordError(reply, 401, 0, '401: Unauthorized');
    const recipientId = (request.body as { recipient_id?: unknown } | undefined)?.recipient_id;
    if (typeof recipientId !== 'string' || !/^\d{1,20}$/.test(recipientId)) return discordError(reply, 400, 50035, 'Invalid Form Body');
    await db.insert(discordSandboxDmChannels).values({ channelId: newSnowflake(), recipientId }).onConflictDoNothing();
    const [channel] = await db.select().from(discordSandboxDmChannels).where(eq(discordSandboxDmChannels.recipientId, recipientId));
    return {
      id: channel!.channelId,
      type: 1,
      last_message_id: null,
      flags: 0,
      recipients: [{ id: recipientId, username: `user_${recipientId.slice(-4)}`, discriminator: '0', avatar: null }],
    };
  });

  api.post(
    '/discord/api/channels/:channelId/messages',
    { schema: { hide: true, params: z.object({ channelId: z.string().max(30) }) } },
    async (request, reply) => {
      if (!isBot(request)) return discordError(reply, 401, 0, '401: Unauthorized');
      const { channelId } = request.params;
      const body = (request.body ?? {}) as { content?: unknown; allowed_mentions?: unknown };
      const content = typeof body.content === 'string' ? body.content : '';
      const bucketHash = createHash('sha256').update(`messages:${channelId}`).digest('hex').slice(0, 16);

      type Outcome =
        | { error: readonly [number, number, string] }
        | { limited: number; remaining: number; resetAfter: number }
        | { row: typeof discordSandboxMessages.$inferSelect; remaining: number; resetAfter: number };
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        const [channel] = await tx
          .select()
          .from(discordSandboxDmChannels)
          .where(eq(discordSandboxDmChannels.channelId, channelId))
          .for('update');
        if (!channel) return { error: [404, 10003, 'Unknown Channel'] as const };
        const [user] = await tx.select().from(discordSandboxUsers).where(eq(discordSandboxUsers.userId, channel.recipientId));
        const mode: DiscordSandboxMode = user?.mode ?? 'normal';
        if (mode === 'unavailable') return { error: [500, 0, '500: Internal Server Error'] as const };
        if (mode === 'rate-limited') return { limited: user!.retryAfterSeconds, remaining: 0, resetAfter: user!.retryAfterSeconds };
        const [member] = await tx
          .select()
          .from(discordSandboxMembers)
          .where(and(eq(discordSandboxMembers.guildId, bot.guildId), eq(discordSandboxMembers.userId, channel.recipientId)));
        if (mode === 'refuse' || !member) return { error: [403, 50007, 'Cannot send messages to this user'] as const };
        if (!content.trim()) return { error: [400, 50006, 'Cannot send an empty message'] as const };
        if (Array.from(content).length > CONTENT_LIMIT) return { error: [400, 50035, 'Invalid Form Body'] as const };
        // The channel's bucket: how many went out in the last 5 seconds, and when the oldest of them leaves it.
        const [window] = await tx
          .select({ sent: count(), oldest: sql<string | null>`min(${discordSandboxMessages.createdAt})::text` })
          .from(discordSandboxMessages)
          .where(
            and(
              eq(discordSandboxMessages.channelId, channelId),
              sql`${discordSandboxMessages.createdAt} > clock_timestamp() - make_interval(secs => ${DISCORD_SANDBOX_BUCKET.windowMs / 1000})`,
            ),
          );
        const sent = Number(window?.sent ?? 0);
        const resetAfter = window?.oldest
          ? Math.max(0, (new Date(window.oldest).getTime() + DISCORD_SANDBOX_BUCKET.windowMs - Date.now()) / 1000)
          : DISCORD_SANDBOX_BUCKET.windowMs / 1000;
        if (sent >= DISCORD_SANDBOX_BUCKET.limit) return { limited: resetAfter, remaining: 0, resetAfter };
        await tx
          .delete(discordSandboxMessages)
          .where(lt(discordSandboxMessages.createdAt, sql`now() - make_interval(days => ${SANDBOX_MESSAGES_KEPT_DAYS})`));
        const [row] = await tx
          .insert(discordSandboxMessages)
          .values({
            id: newSnowflake(),
            channelId,
            recipientId: channel.recipientId,
            content,
            allowedMentions: body.allowed_mentions ?? null,
          })
          .returning();
        return {
          row: row!,
          remaining: DISCORD_SANDBOX_BUCKET.limit - sent - 1,
          resetAfter: sent === 0 ? DISCORD_SANDBOX_BUCKET.windowMs / 1000 : resetAfter,
        };
      });

      if ('error' in outcome) {
        const [status, code, message] = outcome.error;
        return discordError(reply, status, code, message);
      }
      reply
        .header('x-ratelimit-limit', String(DISCORD_SANDBOX_BUCKET.limit))
        .header('x-ratelimit-remaining', String(outcome.remaining))
        .header('x-ratelimit-reset', (Date.now() / 1000 + outcome.resetAfter).toFixed(3))
        .header('x-ratelimit-reset-after', outcome.resetAfter.toFixed(3))
        .header('x-ratelimit-bucket', bucketHash);
      if ('limited' in outcome) {
        const retryAfter = Number(outcome.limited.toFixed(3));
        return reply
          .status(429)
          .header('retry-after', String(Math.ceil(retryAfter)))
          .header('x-ratelimit-scope', 'user')
          .send({ message: 'You are being rate limited.', retry_after: retryAfter, global: false });
      }
      const { row } = outcome;
      return {
        id: row.id,
        type: 0,
        channel_id: row.channelId,
        content: row.content,
        author: botUser,
        timestamp: row.createdAt.toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: [],
        mention_roles: [],
        attachments: [],
        embeds: [],
        pinned: false,
        flags: 0,
      };
    },
  );

  const list = (userId: string | undefined) =>
    db
      .select()
      .from(discordSandboxMessages)
      .where(userId ? eq(discordSandboxMessages.recipientId, userId) : undefined)
      .orderBy(desc(discordSandboxMessages.createdAt), desc(discordSandboxMessages.id))
      .limit(LIST_LIMIT);
  const querySchema = z.object({ userId: snowflake.optional() });

  api.get('/discord/messages', { schema: { hide: true, querystring: querySchema } }, async (request) => ({
    messages: (await list(request.query.userId)).map((row) => ({
      id: row.id,
      userId: row.recipientId,
      channelId: row.channelId,
      content: row.content,
      allowedMentions: row.allowedMentions,
      createdAt: row.createdAt.toISOString(),
    })),
  }));

  api.get('/discord/members', { schema: { hide: true, querystring: querySchema } }, async (request) => ({
    guildId: bot.guildId,
    members: (
      await db
        .select()
        .from(discordSandboxMembers)
        .where(
          and(
            eq(discordSandboxMembers.guildId, bot.guildId),
            request.query.userId ? eq(discordSandboxMembers.userId, request.query.userId) : undefined,
          ),
        )
        .orderBy(desc(discordSandboxMembers.joinedAt))
        .limit(LIST_LIMIT)
    ).map((m) => ({ userId: m.userId, joinedAt: m.joinedAt.toISOString() })),
  }));

  api.post(
    '/discord/users/:userId/mode',
    { schema: { hide: true, params: z.object({ userId: snowflake }), body: discordModeSchema } },
    async (request) => {
      const { userId } = request.params;
      const { mode, retryAfter } = request.body;
      const values = { mode: mode as DiscordSandboxMode, retryAfterSeconds: retryAfter ?? 5, updatedAt: new Date() };
      await db
        .insert(discordSandboxUsers)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: discordSandboxUsers.userId, set: values });
      return { userId, mode, retryAfter: values.retryAfterSeconds };
    },
  );

  api.get('/discord', { schema: { hide: true, querystring: querySchema } }, async (request, reply) => {
    const userId = request.query.userId;
    const rows = await list(userId);
    const switches = await db
      .select()
      .from(discordSandboxUsers)
      .where(sql`${discordSandboxUsers.mode} <> 'normal'`)
      .limit(LIST_LIMIT);
    const [members] = await db.select({ n: count() }).from(discordSandboxMembers).where(eq(discordSandboxMembers.guildId, bot.guildId));
    const items = rows
      .map(
        (row) => `<li class="message">
<p class="meta">Direct message to <a href="/sandbox/discord?userId=${escapeHtml(row.recipientId)}">${escapeHtml(row.recipientId)}</a> · <time datetime="${row.createdAt.toISOString()}">${escapeHtml(row.createdAt.toISOString().replace('T', ' ').slice(0, 19))} UTC</time></p>
<p class="text">${escapeHtml(row.content)}</p>
<p class="hint">allowed_mentions: <code>${escapeHtml(JSON.stringify(row.allowedMentions))}</code></p>
</li>`,
      )
      .join('\n');
    return sendSandboxPage(
      reply,
      200,
      'Discord sandbox: bot messages',
      `<h1>Discord sandbox: what the bot sent</h1>
<p>Olympus's bot sends notifications here instead of Discord, newest first, as the markdown it sent.${userId ? ` Showing direct messages to <strong>${escapeHtml(userId)}</strong> (<a href="/sandbox/discord">show all</a>).` : ''}</p>
<p class="hint">The sandbox server (guild ${escapeHtml(bot.guildId)}) has ${Number(members?.n ?? 0)} member(s), added when they connected Discord; the bot can only write to them.</p>
${rows.length ? `<ul class="messages" aria-label="Messages">${items}</ul>` : '<p>No messages yet.</p>'}
<h2>Refusal switches</h2>
<p class="hint">Make direct messages to a user fail: <code>POST /sandbox/discord/users/USER_ID/mode</code> with <code>{"mode": "refuse" | "rate-limited" | "unavailable" | "normal", "retryAfter": 5}</code>.</p>
${switches.length ? `<ul>${switches.map((u) => `<li>User ${escapeHtml(u.userId)}: ${escapeHtml(u.mode)}${u.mode === 'rate-limited' ? ` (retry after ${u.retryAfterSeconds} s)` : ''}</li>`).join('')}</ul>` : '<p>Every user answers normally.</p>'}`,
      [],
      true,
    );
  });
}
