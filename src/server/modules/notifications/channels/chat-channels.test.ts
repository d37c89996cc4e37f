import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { control, deposit } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { ChatDeliveryRetryableError, type ChatChannel, type ChatNotice } from '#server/modules/notifications/chat-channel.js';
import { DiscordChannel } from './discord.channel.js';
import { TelegramChannel } from './telegram.channel.js';

type Json = Record<string, unknown>;
const tag = () => randomBytes(4).toString('hex');

/** Logs in on the sandbox Telegram page (allowing the bot to write, or not) and connects that account. */
async function connectTelegram(t: TestApp, token: string, allowWrite = true): Promise<string> {
  const config = await call(t, 'GET', '/api/auth/telegram/config');
  const url = new URL(config.json.sandboxLoginUrl as string);
  // The login asks for permission to write, as the widget's data-request-access="write" does.
  expect(url.searchParams.get('request_access')).toBe('write');
  const page = await fetch(`${t.url}${url.pathname}${url.search}`);
  expect(await page.text()).toContain('to send me messages');
  const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), username: `tg_${tag()}`, first_name: 'Ada' });
  if (allowWrite) form.set('allow_write', '1');
  const res = await fetch(`${t.url}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  const fields = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
  const verified = await call(t, 'POST', '/api/auth/verify-telegram', { token, body: fields });
  expect(verified.json.verified).toBe(true);
  const connected = await call(t, 'POST', '/api/users/connect/telegram', {
    token,
    body: { telegramId: fields.id, username: fields.username, firstName: 'Ada', lastName: null },
  });
  expect(connected.status).toBe(200);
  return fields.id!;
}

/** Approves the sandbox Discord consent screen and connects that account; answers its Discord id. */
async function connectDiscord(t: TestApp, token: string): Promise<string> {
  const authorize = await call(t, 'GET', '/api/auth/discord/authorize-url', { token });
  const url = new URL(authorize.json.url as string);
  // guilds.join: connecting adds the person to the product's server, so the bot may write to them.
  expect(url.searchParams.get('scope')?.split(' ')).toEqual(['identify', 'guilds.join']);
  const page = await fetch(`${t.url}${url.pathname}${url.search}`);
  expect(await page.text()).toContain('guilds.join');
  const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), username: `dc_${tag()}`, decision: 'approve' });
  const approve = await fetch(`${t.url}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  const back = new URL(approve.headers.get('location')!);
  const exchanged = await call(t, 'POST', '/api/auth/discord-exchange', {
    token,
    body: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(exchanged.status).toBe(200);
  const discordId = exchanged.json.id as string;
  const connected = await call(t, 'POST', '/api/users/connect/discord', {
    token,
    body: { discordId, username: exchanged.json.username, avatar: exchanged.json.avatar },
  });
  expect(connected.status).toBe(200);
  return discordId;
}

async function expectRetryable(promise: Promise<unknown>, retryAfterMs: number | null) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChatDeliveryRetryableError);
  expect((err as ChatDeliveryRetryableError).retryAfterMs).toBe(retryAfterMs);
}

describe.each(enginesFor('database'))('Telegram and Discord notification channels on %s', { timeout: 120_000 }, (engine) => {
  let t: TestApp;
  let telegram: ChatChannel;
  let discord: ChatChannel;
  const notice = (overrides: Partial<ChatNotice> = {}): ChatNotice => ({
    event: 'payment.credited',
    title: 'Payment <b>credited</b> & done',
    body: 'You got 5 < 6 "credits" *now* @everyone <@123> [click](https://evil.example)',
    link: `${t.config.publicUrl}/payment/process?paymentId=abc&x=1`,
    ...overrides,
  });

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    const db = t.database.db;
    telegram = new TelegramChannel({ db, botToken: t.config.telegram.botToken, apiBase: () => `${t.url}/sandbox/telegram` });
    discord = new DiscordChannel({ db, botToken: t.config.discord.bot!.token, apiBase: () => `${t.url}/sandbox/discord/api` });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  const telegramMessages = async (chatId: string) =>
    (await call(t, 'GET', `/sandbox/telegram/messages?chatId=${chatId}`)).json.messages as Json[];
  const discordMessages = async (userId: string) =>
    (await call(t, 'GET', `/sandbox/discord/messages?userId=${userId}`)).json.messages as Json[];

  describe('Telegram', () => {
    it('sends the notice to the connected chat, escaped for HTML, with the link to the thing itself', async () => {
      const user = await registerUser(t);
      const chatId = await connectTelegram(t, user.token);
      await expect(telegram.deliver(user.userId, notice())).resolves.toEqual({ outcome: 'sent' });
      const [message] = await telegramMessages(chatId);
      expect(message).toMatchObject({
        chatId,
        parseMode: 'HTML',
        // What the person sees: the user's text as typed, never read as tags.
        shownText:
          'Payment <b>credited</b> & done\nYou got 5 < 6 "credits" *now* @everyone <@123> [click](https://evil.example)\n\nOpen in Olympus',
        links: [notice().link],
      });
      expect(message!.text).toContain('<b>Payment &lt;b&gt;credited&lt;/b&gt; &amp; done</b>');
      expect(message!.text).toContain(`<a href="${notice().link.replace('&', '&amp;')}">Open in Olympus</a>`);
    });

    it('answers not-connected for a user without Telegram and sends nothing', async () => {
      const user = await registerUser(t);
      await expect(telegram.deliver(user.userId, notice())).resolves.toEqual({ outcome: 'not-connected' });
      await expect(telegram.deliver('00000000-0000-4000-8000-000000000000', notice())).resolves.toEqual({ outcome: 'not-connected' });
    });

    it('is refused (403) when the user blocked the bot, or never let it write', async () => {
      const user = await registerUser(t);
      const chatId = await connectTelegram(t, user.token);
      expect((await call(t, 'POST', `/sandbox/telegram/chats/${chatId}/mode`, { body: { mode: 'blocked' } })).status).toBe(200);
      await expect(telegram.deliver(user.userId, notice())).resolves.toEqual({
        outcome: 'refused',
        reason: 'Forbidden: bot was blocked by the user',
      });

      const silent = await registerUser(t);
      await connectTelegram(t, silent.token, false);
      await expect(telegram.deliver(silent.userId, notice())).resolves.toEqual({
        outcome: 'refused',
        reason: "Forbidden: bot can't initiate conversation with a user",
      });
      expect(await telegramMessages(chatId)).toEqual([]);
    });

    it("is retryable on 429 with Telegram's retry_after, and on 5xx and network failures without one", async () => {
      const user = await registerUser(t);
      const chatId = await connectTelegram(t, user.token);
      await call(t, 'POST', `/sandbox/telegram/chats/${chatId}/mode`, { body: { mode: 'rate-limited', retryAfter: 7 } });
      await expectRetryable(telegram.deliver(user.userId, notice()), 7_000);

      const other = await registerUser(t);
      const otherChat = await connectTelegram(t, other.token);
      await call(t, 'POST', `/sandbox/telegram/chats/${otherChat}/mode`, { body: { mode: 'unavailable' } });
      await expectRetryable(telegram.deliver(other.userId, notice()), null);
      const offline = new TelegramChannel({ db: t.database.db, botToken: t.config.telegram.botToken, apiBase: () => 'http://127.0.0.1:1' });
      await expectRetryable(offline.deliver(other.userId, notice()), null);
      expect(await telegramMessages(chatId)).toEqual([]);
      expect(await telegramMessages(otherChat)).toEqual([]);
    });

    it('holds one message per second per chat under a burst (the sandbox answers 429 to a flood)', async () => {
      const user = await registerUser(t);
      const chatId = await connectTelegram(t, user.token);
      const results = await Promise.all([1, 2, 3].map((n) => telegram.deliver(user.userId, notice({ title: `Notice ${n}` }))));
      expect(results).toEqual([{ outcome: 'sent' }, { outcome: 'sent' }, { outcome: 'sent' }]);
      const times = (await telegramMessages(chatId)).map((m) => Date.parse(m.createdAt as string)).reverse();
      expect(times).toHaveLength(3);
      for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(500);
    });

    it('shows the messages on the sandbox page', async () => {
      const page = await fetch(`${t.url}/sandbox/telegram`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Payment &lt;b&gt;credited&lt;/b&gt; &amp; done');
      expect(html).not.toContain('<b>credited</b>');
    });
  });

  describe('Discord', () => {
    it("connecting adds the user to the product's server, recorded by the sandbox", async () => {
      const user = await registerUser(t);
      const discordId = await connectDiscord(t, user.token);
      const members = await call(t, 'GET', `/sandbox/discord/members?userId=${discordId}`);
      expect(members.json).toMatchObject({ guildId: t.config.discord.bot!.guildId, members: [{ userId: discordId }] });
    });

    it('sends a direct message, markdown escaped and mentions suppressed, with the link', async () => {
      const user = await registerUser(t);
      const discordId = await connectDiscord(t, user.token);
      await expect(discord.deliver(user.userId, notice())).resolves.toEqual({ outcome: 'sent' });
      const [message] = await discordMessages(discordId);
      expect(message).toMatchObject({
        userId: discordId,
        allowedMentions: { parse: [] },
        content: `**Payment \\<b\\>credited\\</b\\> & done**\nYou got 5 \\< 6 "credits" \\*now\\* \\@everyone \\<\\@123\\> \\[click\\]\\(https\\://evil\\.example\\)\n<${notice().link}>`,
      });
    });

    it('answers not-connected for a user without Discord', async () => {
      const user = await registerUser(t);
      await expect(discord.deliver(user.userId, notice())).resolves.toEqual({ outcome: 'not-connected' });
    });

    it("is refused with Discord's 50007 when the user does not accept the DM", async () => {
      const user = await registerUser(t);
      const discordId = await connectDiscord(t, user.token);
      await call(t, 'POST', `/sandbox/discord/users/${discordId}/mode`, { body: { mode: 'refuse' } });
      await expect(discord.deliver(user.userId, notice())).resolves.toEqual({
        outcome: 'refused',
        reason: 'Cannot send messages to this user',
      });
      expect(await discordMessages(discordId)).toEqual([]);
    });

    it('is retryable on 429 with retry_after, and on 5xx and network failures without one', async () => {
      const user = await registerUser(t);
      const discordId = await connectDiscord(t, user.token);
      await call(t, 'POST', `/sandbox/discord/users/${discordId}/mode`, { body: { mode: 'rate-limited', retryAfter: 3 } });
      await expectRetryable(discord.deliver(user.userId, notice()), 3_000);
      await call(t, 'POST', `/sandbox/discord/users/${discordId}/mode`, { body: { mode: 'unavailable' } });
      // The 429 held this channel's bucket for 3 s; the next call waits for it, then meets the 500.
      await expectRetryable(discord.deliver(user.userId, notice()), null);
      const offline = new DiscordChannel({ db: t.database.db, botToken: t.config.discord.bot!.token, apiBase: () => 'http://127.0.0.1:1' });
      await expectRetryable(offline.deliver(user.userId, notice()), null);
      expect(await discordMessages(discordId)).toEqual([]);
    });

    it("honours the channel's bucket under a burst: 7 messages, none refused with 429", async () => {
      const user = await registerUser(t);
      const discordId = await connectDiscord(t, user.token);
      const started = Date.now();
      const results: unknown[] = [];
      for (let n = 1; n <= 7; n += 1) results.push(await discord.deliver(user.userId, notice({ title: `Notice ${n}` })));
      expect(results).toEqual(Array.from({ length: 7 }, () => ({ outcome: 'sent' })));
      // Five fit the 5-second bucket; the sixth waited for X-RateLimit-Reset-After.
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
      expect(await discordMessages(discordId)).toHaveLength(7);
    });

    it('shows the messages on the sandbox page', async () => {
      const html = await (await fetch(`${t.url}/sandbox/discord`)).text();
      expect(html).toContain('Discord sandbox: what the bot sent');
      expect(html).toContain('\\*now\\*');
    });
  });

  describe('through the app', () => {
    const waitForCount = async (what: string, read: () => Promise<unknown[]>, n: number) => {
      const until = Date.now() + 40_000;
      for (;;) {
        const rows = await read();
        if (rows.length === n) return rows;
        if (rows.length > n || Date.now() > until) throw new Error(`${what}: ${rows.length} messages, expected ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const finish = async (token: string) => {
      const p = await deposit(t, token);
      for (const step of ['confirming', 'confirmed', 'sending', 'finished']) await control(t, p.providerPaymentId, { status: step });
      // The provider repeats itself: nothing more is sent.
      await control(t, p.providerPaymentId, { status: 'finished' });
      return p as { _id: string };
    };

    it('a finished sandbox payment reaches the connected chat and the Discord DM once each, linking to it; a channel turned off gets nothing', async () => {
      const user = await registerUser(t);
      const chatId = await connectTelegram(t, user.token);
      const discordId = await connectDiscord(t, user.token);

      const first = await finish(user.token);
      const [sent] = await waitForCount('Telegram', () => telegramMessages(chatId), 1);
      const [dm] = await waitForCount('Discord', () => discordMessages(discordId), 1);
      expect((sent as { links: string[] }).links).toEqual([`${t.config.publicUrl}/dashboard/payments/${first._id}`]);
      expect((dm as { content: string }).content).toContain(`<${t.config.publicUrl}/dashboard/payments/${first._id}>`);
      await t.app.jobs.drain(); // every delivery job still due has run: a second message would be there by now
      expect(await telegramMessages(chatId)).toHaveLength(1);
      expect(await discordMessages(discordId)).toHaveLength(1);

      // Discord turned off for credited payments: the next one goes to Telegram only.
      const off = await call(t, 'PUT', '/api/users/notification-preferences', {
        token: user.token,
        body: { changes: [{ event: 'payment.credited', channel: 'discord', enabled: false }] },
      });
      expect(off.status).toBe(200);
      await finish(user.token);
      await waitForCount('Telegram', () => telegramMessages(chatId), 2);
      await t.app.jobs.drain(); // every delivery job still due has run: a Discord message would be there by now
      expect(await discordMessages(discordId)).toHaveLength(1);
    });
  });
});
