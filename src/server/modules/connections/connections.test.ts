import { createHash, createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SECRETS } from '#server/config.js';
import { sandboxDiscordAvatar, sandboxDiscordId } from '#server/sandbox/discord/discord.sandbox.js';
import { sandboxTelegramId } from '#server/sandbox/telegram/telegram.sandbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { signTelegramLogin, telegramDataCheckString } from './telegram-login.js';

interface Json {
  [key: string]: unknown;
}

async function call(t: TestApp, method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Json, text };
}

let counter = 0;
const PASSWORD = 'a long passphrase 42';

async function register(t: TestApp) {
  counter += 1;
  const username = `conn${Date.now().toString(36)}${counter}`;
  const res = await call(t, 'POST', '/api/register', {
    body: { username, email: `${username}@example.com`, password: PASSWORD, turnstileToken: 'ok' },
  });
  expect(res.status).toBe(201);
  return { username, token: res.json.token as string, id: (res.json.user as Json)._id as string };
}

/** A second session of the same account. */
async function login(t: TestApp, username: string): Promise<string> {
  const res = await call(t, 'POST', '/api/login', { body: { username, password: PASSWORD, turnstileToken: 'ok' } });
  expect(res.status).toBe(200);
  return res.json.token as string;
}

async function me(t: TestApp, token: string): Promise<Json> {
  const res = await call(t, 'GET', '/api/auth/me', { token });
  return res.json.user as Json;
}

/** Asks for an authorize URL and answers the sandbox consent screen as a person would. */
async function authorizeDiscord(t: TestApp, token: string, discordUsername: string, decision: 'approve' | 'cancel' = 'approve') {
  const res = await call(t, 'GET', '/api/auth/discord/authorize-url', { token });
  expect(res.status).toBe(200);
  const url = new URL(res.json.url as string);
  const page = await fetch(`${t.url}${url.pathname}${url.search}`);
  expect(page.status).toBe(200);
  const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), username: discordUsername, decision });
  const approve = await fetch(`${t.url}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect(approve.status).toBe(302);
  const back = new URL(approve.headers.get('location')!);
  return { authorizeUrl: url, callback: back, code: back.searchParams.get('code'), state: back.searchParams.get('state') };
}

async function verifiedDiscord(t: TestApp, token: string, discordUsername: string) {
  const { code, state } = await authorizeDiscord(t, token, discordUsername);
  const res = await call(t, 'POST', '/api/auth/discord-exchange', { token, body: { code, state } });
  expect(res.status).toBe(200);
  return res.json;
}

/** Goes through the sandbox Telegram login page; answers the fields /telegram-callback would receive. */
async function telegramLogin(t: TestApp, telegramUsername: string, firstName = 'Ada'): Promise<Record<string, string>> {
  const config = await call(t, 'GET', '/api/auth/telegram/config');
  const url = new URL(config.json.sandboxLoginUrl as string);
  const form = new URLSearchParams({
    ...Object.fromEntries(url.searchParams),
    username: telegramUsername,
    first_name: firstName,
    last_name: 'Lovelace',
  });
  const res = await fetch(`${t.url}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
}

describe('Telegram Login Widget check', () => {
  it('builds the data-check-string from the received fields except hash, sorted, one per line', () => {
    expect(
      telegramDataCheckString({ username: 'ada', id: '42', hash: 'x', auth_date: '100', last_name: undefined, first_name: 'Ada' }),
    ).toBe('auth_date=100\nfirst_name=Ada\nid=42\nusername=ada');
  });

  it('signs with HMAC-SHA-256 keyed by the SHA-256 of the bot token', () => {
    const fields = { id: '42', first_name: 'Ada', auth_date: '100' };
    const key = createHash('sha256').update('123:ABC').digest();
    const expected = createHmac('sha256', key).update('auth_date=100\nfirst_name=Ada\nid=42').digest('hex');
    expect(signTelegramLogin('123:ABC', fields)).toBe(expected);
  });
});

describe.each(enginesFor('logic'))('Discord and Telegram connections on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  describe('Discord', () => {
    it('connects the account approved on the consent screen and shows it on the user', async () => {
      const user = await register(t);
      const { authorizeUrl, code, state } = await authorizeDiscord(t, user.token, 'ada_discord');
      expect(authorizeUrl.searchParams.get('client_id')).toBe(SANDBOX_SECRETS.discordClientId);
      // guilds.join: the sandbox has a bot, so connecting also adds the person to the product's server (decision 0267).
      expect(authorizeUrl.searchParams.get('scope')).toBe('identify guilds.join');
      expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${t.config.publicUrl}/discord-callback`);
      expect(state).toBe(authorizeUrl.searchParams.get('state'));

      const exchange = await call(t, 'POST', '/api/auth/discord-exchange', { token: user.token, body: { code, state } });
      expect(exchange.status).toBe(200);
      expect(exchange.json).toEqual({
        id: sandboxDiscordId('ada_discord'),
        username: 'ada_discord',
        avatar: sandboxDiscordAvatar('ada_discord'),
      });

      const connect = await call(t, 'POST', '/api/users/connect/discord', {
        token: user.token,
        body: { discordId: exchange.json.id, username: exchange.json.username, avatar: exchange.json.avatar },
      });
      expect(connect.status).toBe(200);
      expect(connect.json.discord).toMatchObject({
        id: sandboxDiscordId('ada_discord'),
        username: 'ada_discord',
        avatar: sandboxDiscordAvatar('ada_discord'),
      });
      expect((await me(t, user.token)).discord).toMatchObject({ id: sandboxDiscordId('ada_discord'), username: 'ada_discord' });
    });

    it('stores the username Discord answered, not the one the browser sent', async () => {
      const user = await register(t);
      const identity = await verifiedDiscord(t, user.token, 'honest_name');
      const connect = await call(t, 'POST', '/api/users/connect/discord', {
        token: user.token,
        body: { discordId: identity.id, username: 'someone_else', avatar: null },
      });
      expect(connect.status).toBe(200);
      expect((await me(t, user.token)).discord).toMatchObject({ username: 'honest_name', avatar: sandboxDiscordAvatar('honest_name') });
    });

    it('sends a cancelled consent back with access_denied and the state', async () => {
      const user = await register(t);
      const { callback, state } = await authorizeDiscord(t, user.token, 'cancel_me', 'cancel');
      expect(callback.pathname).toBe('/discord-callback');
      expect(callback.searchParams.get('error')).toBe('access_denied');
      expect(callback.searchParams.get('error_description')).toBeTruthy();
      expect(callback.searchParams.get('code')).toBeNull();
      expect(state).toBeTruthy();
    });

    it('refuses authorize URLs for guests and visitors', async () => {
      expect((await call(t, 'GET', '/api/auth/discord/authorize-url')).status).toBe(401);
      const guest = await call(t, 'POST', '/api/guest');
      expect((await call(t, 'GET', '/api/auth/discord/authorize-url', { token: guest.json.token as string })).status).toBe(403);
    });

    it('refuses a missing state and changes nothing', async () => {
      const user = await register(t);
      const { code } = await authorizeDiscord(t, user.token, 'no_state');
      const res = await call(t, 'POST', '/api/auth/discord-exchange', { token: user.token, body: { code } });
      expect(res.status).toBe(400);
      expect(typeof res.json.error).toBe('string');
      const connect = await call(t, 'POST', '/api/users/connect/discord', {
        token: user.token,
        body: { discordId: sandboxDiscordId('no_state'), username: 'no_state', avatar: null },
      });
      expect(connect.status).toBe(403);
      expect((await me(t, user.token)).discord).toBeNull();
    });

    it('refuses a reused state, even with a fresh code', async () => {
      const user = await register(t);
      const first = await authorizeDiscord(t, user.token, 'reuse_state');
      expect(
        (await call(t, 'POST', '/api/auth/discord-exchange', { token: user.token, body: { code: first.code, state: first.state } })).status,
      ).toBe(200);
      const second = await authorizeDiscord(t, user.token, 'reuse_state_two');
      const res = await call(t, 'POST', '/api/auth/discord-exchange', {
        token: user.token,
        body: { code: second.code, state: first.state },
      });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('INVALID_OAUTH_STATE');
      const connect = await call(t, 'POST', '/api/users/connect/discord', {
        token: user.token,
        body: { discordId: sandboxDiscordId('reuse_state_two'), username: 'x', avatar: null },
      });
      expect(connect.status).toBe(403);
    });

    it('refuses a state issued to another session, and an expired one', async () => {
      const user = await register(t);
      const other = await register(t);
      const flow = await authorizeDiscord(t, user.token, 'stolen_state');
      const stolen = await call(t, 'POST', '/api/auth/discord-exchange', {
        token: other.token,
        body: { code: flow.code, state: flow.state },
      });
      expect(stolen.status).toBe(400);
      expect(stolen.json.code).toBe('INVALID_OAUTH_STATE');
      // Another session of the same account does not own the state either.
      const secondSession = await login(t, user.username);
      expect(
        (await call(t, 'POST', '/api/auth/discord-exchange', { token: secondSession, body: { code: flow.code, state: flow.state } }))
          .status,
      ).toBe(400);

      const late = await authorizeDiscord(t, user.token, 'late_state');
      await t.database.db.execute(sql`UPDATE oauth_states SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
      const expired = await call(t, 'POST', '/api/auth/discord-exchange', {
        token: user.token,
        body: { code: late.code, state: late.state },
      });
      expect(expired.status).toBe(400);
      expect(expired.json.code).toBe('INVALID_OAUTH_STATE');
      expect((await me(t, user.token)).discord).toBeNull();
      expect((await me(t, other.token)).discord).toBeNull();
    });

    it("answers Discord's refusal of a used or unknown code with the reason", async () => {
      const user = await register(t);
      const flow = await authorizeDiscord(t, user.token, 'code_once');
      expect(
        (await call(t, 'POST', '/api/auth/discord-exchange', { token: user.token, body: { code: flow.code, state: flow.state } })).status,
      ).toBe(200);
      const again = await authorizeDiscord(t, user.token, 'code_once');
      const reused = await call(t, 'POST', '/api/auth/discord-exchange', {
        token: user.token,
        body: { code: flow.code, state: again.state },
      });
      expect(reused.status).toBe(400);
      expect(reused.json).toMatchObject({ code: 'DISCORD_CODE_REJECTED', details: { error_description: 'Invalid "code" in request.' } });
      expect(reused.json.error).toMatch(/Discord did not accept/);
    });

    it('connects only the identity verified for this session in the last few minutes', async () => {
      const user = await register(t);
      // Never verified.
      const never = await call(t, 'POST', '/api/users/connect/discord', {
        token: user.token,
        body: { discordId: '123456789012345678', username: 'x', avatar: null },
      });
      expect(never.status).toBe(403);
      expect(never.json.code).toBe('CONNECTION_NOT_VERIFIED');

      const identity = await verifiedDiscord(t, user.token, 'verified_one');
      // Another id than the verified one.
      const other = await call(t, 'POST', '/api/users/connect/discord', {
        token: user.token,
        body: { discordId: sandboxDiscordId('somebody_else'), username: 'x', avatar: null },
      });
      expect(other.status).toBe(403);
      // The verified id, from another session of the same account.
      const secondSession = await login(t, user.username);
      expect(
        (
          await call(t, 'POST', '/api/users/connect/discord', {
            token: secondSession,
            body: { discordId: identity.id, username: 'x', avatar: null },
          })
        ).status,
      ).toBe(403);
      // The verified id after the verification has lapsed.
      await t.database.db.execute(sql`UPDATE connection_verifications SET expires_at = now() - interval '1 second'`);
      expect(
        (
          await call(t, 'POST', '/api/users/connect/discord', {
            token: user.token,
            body: { discordId: identity.id, username: 'x', avatar: null },
          })
        ).status,
      ).toBe(403);
      expect((await me(t, user.token)).discord).toBeNull();
    });

    it('keeps one Discord account on one user', async () => {
      const first = await register(t);
      const second = await register(t);
      const a = await verifiedDiscord(t, first.token, 'shared_account');
      expect(
        (
          await call(t, 'POST', '/api/users/connect/discord', {
            token: first.token,
            body: { discordId: a.id, username: a.username, avatar: a.avatar },
          })
        ).status,
      ).toBe(200);

      const b = await verifiedDiscord(t, second.token, 'shared_account');
      expect(b.id).toBe(a.id);
      const taken = await call(t, 'POST', '/api/users/connect/discord', {
        token: second.token,
        body: { discordId: b.id, username: b.username, avatar: b.avatar },
      });
      expect(taken.status).toBe(409);
      expect(taken.json).toMatchObject({
        code: 'CONNECTION_TAKEN',
        error: 'This Discord account is already connected to another user.',
        details: { provider: 'discord' },
      });
      expect((await me(t, second.token)).discord).toBeNull();
      expect((await me(t, first.token)).discord).toMatchObject({ id: a.id });

      // Once the first user lets it go, the second may connect it.
      expect((await call(t, 'DELETE', '/api/users/disconnect/discord', { token: first.token })).status).toBe(200);
      expect(
        (
          await call(t, 'POST', '/api/users/connect/discord', {
            token: second.token,
            body: { discordId: b.id, username: b.username, avatar: b.avatar },
          })
        ).status,
      ).toBe(200);
      expect((await me(t, second.token)).discord).toMatchObject({ id: a.id });
    });

    it('disconnects', async () => {
      const user = await register(t);
      const identity = await verifiedDiscord(t, user.token, 'leaving_soon');
      await call(t, 'POST', '/api/users/connect/discord', {
        token: user.token,
        body: { discordId: identity.id, username: identity.username, avatar: identity.avatar },
      });
      const res = await call(t, 'DELETE', '/api/users/disconnect/discord', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.json.message).toBe('Discord account disconnected');
      expect((await me(t, user.token)).discord).toBeNull();
      expect((await call(t, 'DELETE', '/api/users/disconnect/discord')).status).toBe(401);
    });
  });

  describe('Discord sandbox', () => {
    it('shows an error page, not a redirect, for an unregistered redirect_uri or unknown client', async () => {
      const base = `${t.url}/sandbox/discord/oauth2/authorize?response_type=code&scope=identify&state=s`;
      const evil = await fetch(
        `${base}&client_id=${SANDBOX_SECRETS.discordClientId}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
        { redirect: 'manual' },
      );
      expect(evil.status).toBe(400);
      expect(await evil.text()).toContain('Invalid OAuth2 redirect_uri');
      const unknown = await fetch(`${base}&client_id=nope&redirect_uri=${encodeURIComponent(`${t.config.publicUrl}/discord-callback`)}`, {
        redirect: 'manual',
      });
      expect(unknown.status).toBe(400);
    });

    it('takes the token request form-encoded only, with the client secret', async () => {
      const json = await fetch(`${t.url}/sandbox/discord/api/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          code: 'x',
          client_id: SANDBOX_SECRETS.discordClientId,
          client_secret: SANDBOX_SECRETS.discordClientSecret,
        }),
      });
      expect(json.status).toBe(400);
      const wrongSecret = await fetch(`${t.url}/sandbox/discord/api/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'x',
          client_id: SANDBOX_SECRETS.discordClientId,
          client_secret: 'wrong',
        }),
      });
      expect(wrongSecret.status).toBe(401);
      expect(await wrongSecret.json()).toEqual({ error: 'invalid_client' });
      const me = await fetch(`${t.url}/sandbox/discord/api/users/@me`, { headers: { authorization: 'Bearer nope' } });
      expect(me.status).toBe(401);
    });
  });

  describe('Telegram', () => {
    it('publishes the sandbox login page while no bot is configured', async () => {
      const res = await call(t, 'GET', '/api/auth/telegram/config');
      expect(res.status).toBe(200);
      expect(res.json.botName).toBe(SANDBOX_SECRETS.telegramBotName);
      expect(res.json.authUrl).toBe(`${t.config.publicUrl}/telegram-callback`);
      const login = new URL(res.json.sandboxLoginUrl as string);
      expect(login.pathname).toBe('/sandbox/telegram/login');
      expect(login.searchParams.get('return_to')).toBe(`${t.config.publicUrl}/telegram-callback`);
      // As the widget's data-request-access="write": the bot may then send notifications (decision 0267).
      expect(login.searchParams.get('request_access')).toBe('write');
    });

    it('verifies a signed login and connects exactly that account', async () => {
      const user = await register(t);
      const fields = await telegramLogin(t, 'ada_telegram');
      expect(Object.keys(fields).sort()).toEqual(['auth_date', 'first_name', 'hash', 'id', 'last_name', 'photo_url', 'username']);
      expect(fields.id).toBe(sandboxTelegramId('ada_telegram'));

      const verify = await call(t, 'POST', '/api/auth/verify-telegram', { token: user.token, body: fields });
      expect(verify.status).toBe(200);
      expect(verify.json).toMatchObject({
        verified: true,
        id: fields.id,
        username: 'ada_telegram',
        firstName: 'Ada',
        lastName: 'Lovelace',
      });

      const connect = await call(t, 'POST', '/api/users/connect/telegram', {
        token: user.token,
        body: { telegramId: fields.id, username: fields.username, firstName: fields.first_name, lastName: fields.last_name },
      });
      expect(connect.status).toBe(200);
      expect(connect.json.telegram).toMatchObject({ id: fields.id, username: 'ada_telegram', firstName: 'Ada', lastName: 'Lovelace' });
      expect((await me(t, user.token)).telegram).toMatchObject({ id: fields.id });
    });

    it('accepts a login without the optional fields, signed over what was sent', async () => {
      const user = await register(t);
      const fields = { id: '777000111', first_name: 'Solo', auth_date: String(Math.floor(Date.now() / 1000)) };
      const body = { ...fields, hash: signTelegramLogin(SANDBOX_SECRETS.telegramBotToken, fields) };
      const verify = await call(t, 'POST', '/api/auth/verify-telegram', { token: user.token, body });
      expect(verify.json).toMatchObject({ verified: true, id: '777000111', username: null, lastName: null });
    });

    it('refuses a tampered hash or a tampered field, and then refuses to connect', async () => {
      const user = await register(t);
      const fields = await telegramLogin(t, 'tampered_tg');
      const flipped = fields.hash!.slice(0, -1) + (fields.hash!.endsWith('0') ? '1' : '0');
      const badHash = await call(t, 'POST', '/api/auth/verify-telegram', { token: user.token, body: { ...fields, hash: flipped } });
      expect(badHash.status).toBe(200);
      expect(badHash.json).toEqual({ verified: false, reason: 'hash_mismatch' });
      const otherId = await call(t, 'POST', '/api/auth/verify-telegram', { token: user.token, body: { ...fields, id: '123' } });
      expect(otherId.json).toEqual({ verified: false, reason: 'hash_mismatch' });

      const connect = await call(t, 'POST', '/api/users/connect/telegram', {
        token: user.token,
        body: { telegramId: fields.id, username: fields.username, firstName: 'x', lastName: 'y' },
      });
      expect(connect.status).toBe(403);
      expect(connect.json.code).toBe('CONNECTION_NOT_VERIFIED');
      expect((await me(t, user.token)).telegram).toBeNull();
    });

    it('refuses a login signed with another bot token', async () => {
      const user = await register(t);
      const fields = { id: '5550001', first_name: 'Eve', auth_date: String(Math.floor(Date.now() / 1000)) };
      const res = await call(t, 'POST', '/api/auth/verify-telegram', {
        token: user.token,
        body: { ...fields, hash: signTelegramLogin('1:another-bot', fields) },
      });
      expect(res.json).toEqual({ verified: false, reason: 'hash_mismatch' });
    });

    it('refuses a correctly signed login older than 24 hours', async () => {
      const user = await register(t);
      const fields = {
        id: '5550002',
        first_name: 'Old',
        username: 'old_login',
        auth_date: String(Math.floor(Date.now() / 1000) - 24 * 60 * 60 - 5),
      };
      const res = await call(t, 'POST', '/api/auth/verify-telegram', {
        token: user.token,
        body: { ...fields, hash: signTelegramLogin(SANDBOX_SECRETS.telegramBotToken, fields) },
      });
      expect(res.json).toEqual({ verified: false, reason: 'expired' });
      expect(
        (
          await call(t, 'POST', '/api/users/connect/telegram', {
            token: user.token,
            body: { telegramId: '5550002', username: 'old_login', firstName: 'Old', lastName: null },
          })
        ).status,
      ).toBe(403);
      expect((await me(t, user.token)).telegram).toBeNull();
    });

    it('refuses a replayed login from another session', async () => {
      const owner = await register(t);
      const thief = await register(t);
      const fields = await telegramLogin(t, 'replayed_tg');
      expect((await call(t, 'POST', '/api/auth/verify-telegram', { token: owner.token, body: fields })).json.verified).toBe(true);
      const replay = await call(t, 'POST', '/api/auth/verify-telegram', { token: thief.token, body: fields });
      expect(replay.json).toEqual({ verified: false, reason: 'reused' });
      expect(
        (
          await call(t, 'POST', '/api/users/connect/telegram', {
            token: thief.token,
            body: { telegramId: fields.id, username: null, firstName: null, lastName: null },
          })
        ).status,
      ).toBe(403);
    });

    it('answers malformed data with 400 and a message', async () => {
      const user = await register(t);
      const res = await call(t, 'POST', '/api/auth/verify-telegram', { token: user.token, body: { id: 'abc', auth_date: '1', hash: 'x' } });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/Invalid Telegram id/);
    });

    it('keeps one Telegram account on one user, and disconnects', async () => {
      const first = await register(t);
      const second = await register(t);
      const a = await telegramLogin(t, 'shared_tg');
      expect((await call(t, 'POST', '/api/auth/verify-telegram', { token: first.token, body: a })).json.verified).toBe(true);
      expect(
        (
          await call(t, 'POST', '/api/users/connect/telegram', {
            token: first.token,
            body: { telegramId: a.id, username: a.username, firstName: a.first_name, lastName: a.last_name },
          })
        ).status,
      ).toBe(200);

      // Another login of the same Telegram account (a different name, so not the very same signed payload).
      const b = await telegramLogin(t, 'shared_tg', 'Augusta');
      expect(b.id).toBe(a.id);
      expect((await call(t, 'POST', '/api/auth/verify-telegram', { token: second.token, body: b })).json.verified).toBe(true);
      const taken = await call(t, 'POST', '/api/users/connect/telegram', {
        token: second.token,
        body: { telegramId: b.id, username: b.username, firstName: b.first_name, lastName: b.last_name },
      });
      expect(taken.status).toBe(409);
      expect(taken.json.error).toBe('This Telegram account is already connected to another user.');
      expect((await me(t, second.token)).telegram).toBeNull();

      const bye = await call(t, 'DELETE', '/api/users/disconnect/telegram', { token: first.token });
      expect(bye.status).toBe(200);
      expect((await me(t, first.token)).telegram).toBeNull();
    });
  });
});
