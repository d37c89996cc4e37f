import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.js';
import { escapeHtml, sendSandboxPage } from '#server/sandbox/discord/html-page.js';
import { telegramSandboxChats, telegramSandboxMessages, type TelegramSandboxMode } from './telegram-sandbox.tables.js';

/** Messages older than this are deleted when a new one is recorded (the sandbox's record only grows otherwise). */
export const SANDBOX_MESSAGES_KEPT_DAYS = 7;
const LIST_LIMIT = 200;
const TEXT_LIMIT = 4096;
/** Telegram does not publish its exact flood rule for one chat; the sandbox refuses a second message within half a second. */
const CHAT_MIN_GAP_MS = 500;

export const telegramModeSchema = z.object({
  mode: z.enum(['normal', 'blocked', 'rate-limited', 'unavailable']),
  retryAfter: z.number().int().min(1).max(3600).optional(),
});
const chatIdSchema = z.string().regex(/^-?\d{1,20}$/, 'A Telegram chat id');

export class TelegramEntityError extends Error {}

/**
 * Reads a text in Telegram's HTML parse mode as Telegram does: the tags it supports, the four named
 * entities and numeric ones; anything else (a stray `<` or `&`) is refused ("can't parse entities").
 * Answers the text people see and the links.
 */
export function parseTelegramHtml(input: string): { shown: string; links: string[] } {
  const allowed = new Set([
    'b',
    'strong',
    'i',
    'em',
    'u',
    'ins',
    's',
    'strike',
    'del',
    'code',
    'pre',
    'a',
    'tg-spoiler',
    'span',
    'blockquote',
  ]);
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
  const decode = (text: string) =>
    text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);|&/gi, (whole, name: string | undefined) => {
      if (!name) throw new TelegramEntityError("Can't find end of the entity starting at an ampersand");
      if (name.startsWith('#'))
        return String.fromCodePoint(name[1]?.toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
      const value = named[name.toLowerCase()];
      if (value === undefined) throw new TelegramEntityError(`Unsupported HTML entity ${whole}`);
      return value;
    });
  const open: string[] = [];
  const links: string[] = [];
  let shown = '';
  let rest = input;
  while (rest.length) {
    const lt = rest.indexOf('<');
    if (lt === -1) {
      shown += decode(rest);
      break;
    }
    shown += decode(rest.slice(0, lt));
    const gt = rest.indexOf('>', lt);
    if (gt === -1) throw new TelegramEntityError('Unclosed start tag');
    const tag = rest.slice(lt + 1, gt);
    rest = rest.slice(gt + 1);
    const closing = /^\/([a-z-]+)$/i.exec(tag);
    if (closing) {
      if (open.pop() !== closing[1]!.toLowerCase()) throw new TelegramEntityError(`Unmatched end tag "${closing[1]}"`);
      continue;
    }
    const start = /^([a-z-]+)(?:\s+([a-z-]+)="([^"]*)")?$/i.exec(tag);
    const name = start?.[1]?.toLowerCase();
    if (!start || !name || !allowed.has(name)) throw new TelegramEntityError(`Unsupported start tag "${tag.split(/\s/)[0]}"`);
    if (name === 'a') {
      if (start[2]?.toLowerCase() !== 'href') throw new TelegramEntityError('A link needs an href');
      links.push(decode(start[3] ?? ''));
    }
    open.push(name);
  }
  if (open.length) throw new TelegramEntityError(`Can't find end tag corresponding to start tag "${open.at(-1)}"`);
  return { shown, links };
}

type BotAnswer =
  { ok: true; result: unknown } | { ok: false; error_code: number; description: string; parameters?: { retry_after: number } };

function fail(reply: FastifyReply, code: number, description: string, retryAfter?: number): BotAnswer {
  reply.status(code);
  if (retryAfter) reply.header('retry-after', String(retryAfter));
  return { ok: false, error_code: code, description, ...(retryAfter ? { parameters: { retry_after: retryAfter } } : {}) };
}

/**
 * The part of Telegram's Bot API the product uses: `sendMessage` (docs/providers.md). It answers as
 * Telegram does: 403 when the user did not let the bot write to them (or blocked it: a switch), 429 with
 * `retry_after` when a chat gets more than about one message a second (or by the switch), 400 for HTML
 * Telegram cannot parse. What the bot sent is kept, listed at `/sandbox/telegram/messages` and on the
 * sandbox page.
 */
export function registerTelegramBotSandbox(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const { config } = ctx;
  const botId = Number(config.telegram.botToken.split(':')[0] ?? 0);

  app.post('/telegram/bot:token/:method', { schema: { hide: true } }, async (request, reply) => {
    const { token, method } = request.params as { token: string; method: string };
    if (token !== config.telegram.botToken) return fail(reply, 401, 'Unauthorized');
    if (method !== 'sendMessage') return fail(reply, 404, 'Not Found');
    // Telegram takes JSON, a form or the query string alike.
    const input = { ...(request.query as Record<string, unknown>), ...((request.body ?? {}) as Record<string, unknown>) };
    const chatId = String(input.chat_id ?? '');
    if (!/^-?\d{1,20}$/.test(chatId)) return fail(reply, 400, 'Bad Request: chat not found');
    const text = typeof input.text === 'string' ? input.text : '';
    if (!text.trim()) return fail(reply, 400, 'Bad Request: message text is empty');
    let parsed = { shown: text, links: [] as string[] };
    const parseMode = typeof input.parse_mode === 'string' && input.parse_mode ? input.parse_mode : null;
    if (parseMode && parseMode.toUpperCase() !== 'HTML')
      return fail(reply, 400, `Bad Request: unsupported parse_mode "${parseMode}" in the sandbox`);
    if (parseMode) {
      try {
        parsed = parseTelegramHtml(text);
      } catch (err) {
        return fail(reply, 400, `Bad Request: can't parse entities: ${(err as Error).message}`);
      }
    }
    if (Array.from(parsed.shown).length > TEXT_LIMIT) return fail(reply, 400, 'Bad Request: message is too long');

    type Outcome = { error: readonly [number, string, number?] } | { row: typeof telegramSandboxMessages.$inferSelect; messageId: number };
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      // The chat row is locked so two sends to one chat are judged one after the other.
      const [chat] = await tx.select().from(telegramSandboxChats).where(eq(telegramSandboxChats.chatId, chatId)).for('update');
      if (!chat?.writeAccessAt) return { error: [403, "Forbidden: bot can't initiate conversation with a user"] as const };
      if (chat.mode === 'blocked') return { error: [403, 'Forbidden: bot was blocked by the user'] as const };
      if (chat.mode === 'unavailable') return { error: [502, 'Bad Gateway'] as const };
      if (chat.mode === 'rate-limited')
        return { error: [429, `Too Many Requests: retry after ${chat.retryAfterSeconds}`, chat.retryAfterSeconds] as const };
      const [recent] = await tx
        .select({ id: telegramSandboxMessages.id })
        .from(telegramSandboxMessages)
        .where(
          and(
            eq(telegramSandboxMessages.chatId, chatId),
            sql`${telegramSandboxMessages.createdAt} > clock_timestamp() - make_interval(secs => ${CHAT_MIN_GAP_MS / 1000})`,
          ),
        )
        .limit(1);
      if (recent) return { error: [429, 'Too Many Requests: retry after 1', 1] as const };
      await tx
        .delete(telegramSandboxMessages)
        .where(lt(telegramSandboxMessages.createdAt, sql`now() - make_interval(days => ${SANDBOX_MESSAGES_KEPT_DAYS})`));
      const [row] = await tx
        .insert(telegramSandboxMessages)
        .values({ chatId, text, parseMode, shownText: parsed.shown, links: parsed.links })
        .returning();
      const [{ count }] = (
        await tx.execute<{ count: string }>(sql`SELECT count(*) AS count FROM ${telegramSandboxMessages} WHERE chat_id = ${chatId}`)
      ).rows as [{ count: string }];
      return { row: row!, messageId: Number(count) };
    });
    if ('error' in outcome) {
      const [code, description, retryAfter] = outcome.error;
      return fail(reply, code, description, retryAfter);
    }
    return {
      ok: true,
      result: {
        message_id: outcome.messageId,
        from: { id: botId, is_bot: true, first_name: 'Olympus', username: config.telegram.botName },
        chat: { id: Number(chatId), type: 'private' },
        date: Math.floor(outcome.row.createdAt.getTime() / 1000),
        text: parsed.shown,
      },
    } satisfies BotAnswer;
  });

  const list = (chatId: string | undefined) =>
    db
      .select()
      .from(telegramSandboxMessages)
      .where(chatId ? eq(telegramSandboxMessages.chatId, chatId) : undefined)
      .orderBy(desc(telegramSandboxMessages.createdAt), desc(telegramSandboxMessages.id))
      .limit(LIST_LIMIT);

  const querySchema = z.object({ chatId: chatIdSchema.optional() });

  api.get('/telegram/messages', { schema: { hide: true, querystring: querySchema } }, async (request) => ({
    messages: (await list(request.query.chatId)).map((row) => ({
      id: row.id,
      chatId: row.chatId,
      text: row.text,
      parseMode: row.parseMode,
      shownText: row.shownText,
      links: row.links,
      createdAt: row.createdAt.toISOString(),
    })),
  }));

  api.post(
    '/telegram/chats/:chatId/mode',
    { schema: { hide: true, params: z.object({ chatId: chatIdSchema }), body: telegramModeSchema } },
    async (request) => {
      const { chatId } = request.params;
      const { mode, retryAfter } = request.body;
      const values = { mode: mode as TelegramSandboxMode, retryAfterSeconds: retryAfter ?? 5, updatedAt: new Date() };
      await db
        .insert(telegramSandboxChats)
        .values({ chatId, ...values })
        .onConflictDoUpdate({ target: telegramSandboxChats.chatId, set: values });
      return { chatId, mode, retryAfter: values.retryAfterSeconds };
    },
  );

  api.get('/telegram', { schema: { hide: true, querystring: querySchema } }, async (request, reply) => {
    const chatId = request.query.chatId;
    const rows = await list(chatId);
    const chats = await db.select().from(telegramSandboxChats).orderBy(desc(telegramSandboxChats.updatedAt)).limit(LIST_LIMIT);
    const items = rows
      .map(
        (row) => `<li class="message">
<p class="meta">To chat <a href="/sandbox/telegram?chatId=${escapeHtml(row.chatId)}">${escapeHtml(row.chatId)}</a> · <time datetime="${row.createdAt.toISOString()}">${escapeHtml(row.createdAt.toISOString().replace('T', ' ').slice(0, 19))} UTC</time></p>
<p class="text">${escapeHtml(row.shownText)}</p>
${row.links.map((link) => `<p class="hint">Link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`).join('')}
<details><summary>As sent${row.parseMode ? ` (parse_mode ${escapeHtml(row.parseMode)})` : ''}</summary><pre>${escapeHtml(row.text)}</pre></details>
</li>`,
      )
      .join('\n');
    const switches = chats.filter((c) => c.mode !== 'normal');
    return sendSandboxPage(
      reply,
      200,
      'Telegram sandbox: bot messages',
      `<h1>Telegram sandbox: what the bot sent</h1>
<p>Olympus's bot sends notifications here instead of Telegram, newest first.${chatId ? ` Showing chat <strong>${escapeHtml(chatId)}</strong> (<a href="/sandbox/telegram">show all</a>).` : ''}</p>
${rows.length ? `<ul class="messages" aria-label="Messages">${items}</ul>` : '<p>No messages yet.</p>'}
<h2>Refusal switches</h2>
<p class="hint">Make sendMessage refuse for a chat: <code>POST /sandbox/telegram/chats/CHAT_ID/mode</code> with <code>{"mode": "blocked" | "rate-limited" | "unavailable" | "normal", "retryAfter": 5}</code>.</p>
${switches.length ? `<ul>${switches.map((c) => `<li>Chat ${escapeHtml(c.chatId)}: ${escapeHtml(c.mode)}${c.mode === 'rate-limited' ? ` (retry after ${c.retryAfterSeconds} s)` : ''}</li>`).join('')}</ul>` : '<p>Every chat answers normally.</p>'}`,
      [],
      true,
    );
  });
}
