import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { paths } from '#shared/routes.js';
import type { AppContext } from '#server/context.js';
import { signTelegramLogin, TELEGRAM_SANDBOX_LOGIN_PATH } from '#server/modules/connections/telegram-login.js';
import { escapeHtml, sendSandboxPage } from '#server/sandbox/discord/html-page.js';
import { registerTelegramBotSandbox } from './telegram-bot.sandbox.js';
import { telegramSandboxChats } from './telegram-sandbox.tables.js';

export const TELEGRAM_SANDBOX_DEFAULT_USERNAME = 'sandbox_tg';
const USERNAME_PATTERN = /^[A-Za-z0-9_]{5,32}$/;

/** A stable Telegram user id per sandbox username, so the same name is the same Telegram account. */
export function sandboxTelegramId(username: string): string {
  const n = createHash('sha256').update(`telegram-sandbox:${username.toLowerCase()}`).digest().readUInt32BE(0);
  return String(1_000_000_000 + n);
}

type Params = Record<string, string | undefined>;

/**
 * Imitates the page Telegram's Login Widget opens (docs/providers.md): the person confirms, and the browser
 * goes to the bot's auth URL with the user's fields, `auth_date` and a `hash` signed with the bot token
 * exactly as Telegram signs it. The bot's domain is the app's PUBLIC_URL, so only its
 * /telegram-callback is accepted as the return address.
 */
export function registerTelegramSandbox(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const db = ctx.database.db;
  const botId = config.telegram.botToken.split(':')[0] ?? '';
  const allowedReturn = `${config.publicUrl}${paths.telegramCallback}`;
  const returnOrigin = new URL(allowedReturn).origin;

  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }
  registerTelegramBotSandbox(app, ctx);

  function problem(q: Params): string | null {
    if (q.bot_id !== botId) return 'Unknown bot (bot_id).';
    if (q.return_to !== allowedReturn) return "Bot domain invalid: return_to is not on the bot's domain.";
    return null;
  }

  function loginPage(reply: FastifyReply, q: Params, error: string | null) {
    const username = q.username ?? TELEGRAM_SANDBOX_DEFAULT_USERNAME;
    const field = (name: string, label: string, value: string, hint?: string) => `
<label for="${name}">${label}</label>
<input id="${name}" name="${name}" value="${escapeHtml(value)}" autocomplete="off"${hint ? ` aria-describedby="${name}-hint"` : ''}>
${hint ? `<p class="hint" id="${name}-hint">${hint}</p>` : ''}`;
    return sendSandboxPage(
      reply,
      error ? 400 : 200,
      'Telegram sandbox: log in',
      `<h1>Log in to Olympus with Telegram</h1>
<p>This is the local imitation of Telegram's login page. Confirming signs these details with the sandbox bot token and sends you back to the app.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${TELEGRAM_SANDBOX_LOGIN_PATH}">
<input type="hidden" name="bot_id" value="${escapeHtml(q.bot_id ?? '')}">
<input type="hidden" name="return_to" value="${escapeHtml(q.return_to ?? '')}">
<input type="hidden" name="request_access" value="${escapeHtml(q.request_access ?? '')}">
${field('username', 'Telegram username', username, 'The same username is always the same Telegram account (5 to 32 letters, digits or underscores).')}
${field('first_name', 'First name', q.first_name ?? 'Sandbox')}
${field('last_name', 'Last name (optional)', q.last_name ?? 'User')}
${
  q.request_access === 'write'
    ? `<label class="check"><input type="checkbox" name="allow_write" value="1"${q.allow_write === undefined || q.allow_write === '1' ? ' checked' : ''}> Allow @${escapeHtml(config.telegram.botName)} to send me messages</label>`
    : ''
}
<div class="actions">
<a class="button secondary" href="${escapeHtml(`${config.publicUrl}${paths.settings}`)}">Cancel</a>
<button class="primary" type="submit">Confirm</button>
</div>
</form>`,
      [returnOrigin],
    );
  }

  app.get('/telegram/login', { schema: { hide: true } }, async (request, reply) => {
    const q = request.query as Params;
    const bad = problem(q);
    if (bad)
      return sendSandboxPage(
        reply,
        400,
        'Telegram sandbox: invalid request',
        `<h1>Invalid login request</h1><p class="error" role="alert">${escapeHtml(bad)}</p>`,
      );
    return loginPage(reply, q, null);
  });

  app.post('/telegram/login', { schema: { hide: true } }, async (request, reply) => {
    const form = (request.body ?? {}) as Params;
    const bad = problem(form);
    if (bad)
      return sendSandboxPage(
        reply,
        400,
        'Telegram sandbox: invalid request',
        `<h1>Invalid login request</h1><p class="error" role="alert">${escapeHtml(bad)}</p>`,
      );
    const username = (form.username ?? '').trim();
    const firstName = (form.first_name ?? '').trim();
    if (!USERNAME_PATTERN.test(username)) return loginPage(reply, form, 'The username must be 5 to 32 letters, digits or underscores.');
    if (!firstName || firstName.length > 64) return loginPage(reply, form, 'Enter a first name (at most 64 characters).');
    const lastName = (form.last_name ?? '').trim().slice(0, 64);
    // Telegram leaves out empty fields; what is sent is exactly what is signed.
    const fields: Record<string, string | undefined> = {
      id: sandboxTelegramId(username),
      first_name: firstName,
      last_name: lastName || undefined,
      username,
      photo_url: `https://t.me/i/userpic/320/${username}.jpg`,
      auth_date: String(Math.floor(Date.now() / 1000)),
    };
    // The site asked for permission to write (request_access=write) and the person allowed it: the bot may
    // now start a conversation with them, as on Telegram.
    if (form.request_access === 'write' && form.allow_write === '1') {
      await db
        .insert(telegramSandboxChats)
        .values({ chatId: fields.id!, writeAccessAt: new Date() })
        .onConflictDoUpdate({ target: telegramSandboxChats.chatId, set: { writeAccessAt: new Date(), updatedAt: new Date() } });
    }
    const target = new URL(allowedReturn);
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) target.searchParams.set(key, value);
    target.searchParams.set('hash', signTelegramLogin(config.telegram.botToken, fields));
    return reply.redirect(target.toString(), 302);
  });
}
