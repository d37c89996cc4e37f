import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { paths } from '#shared/routes.js';
import type { AppContext } from '#server/context.js';
import { DISCORD_SANDBOX_AUTHORIZE_PATH } from '#server/modules/connections/discord.client.js';
import { registerDiscordBotSandbox } from './discord-bot.sandbox.js';
import { discordSandboxGrants } from './discord-sandbox.tables.js';
import { escapeHtml, sendSandboxPage } from './html-page.js';

export const DISCORD_SANDBOX_DEFAULT_USERNAME = 'sandbox_user';
const CODE_TTL_S = 10 * 60;
const TOKEN_TTL_S = 7 * 24 * 60 * 60;
const USERNAME_PATTERN = /^[a-z0-9_.]{2,32}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** A stable snowflake-like id per sandbox username, so the same name is the same Discord account. */
export function sandboxDiscordId(username: string): string {
  const n = sha256(`discord-sandbox:${username}`).readUIntBE(0, 6);
  return (100_000_000_000_000_000n + BigInt(n)).toString();
}

/** A stable avatar hash per username (Discord's are 32 hex characters). */
export function sandboxDiscordAvatar(username: string): string {
  return createHash('md5').update(`discord-sandbox-avatar:${username}`).digest('hex');
}

function safeEqual(a: string, b: string): boolean {
  const x = sha256(a);
  const y = sha256(b);
  return timingSafeEqual(x, y);
}

type Params = Record<string, string | undefined>;

/**
 * Imitates Discord's OAuth2 (docs/providers.md): the consent screen, the token endpoint (form-encoded only,
 * client secret checked) and `/users/@me`. The only redirect URI "registered" for the sandbox client is
 * the app's own /discord-callback, as a real application's settings would list it.
 */
export function registerDiscordSandbox(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  registerDiscordSandboxAvatars(app);
  registerDiscordBotSandbox(app, ctx);
  const db = ctx.database.db;
  const registeredRedirects = [`${config.publicUrl}${paths.discordCallback}`];
  const redirectOrigins = registeredRedirects.map((uri) => new URL(uri).origin);

  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }

  /** Discord shows an error page (no redirect) when the client or redirect URI is wrong. */
  function authorizeProblem(q: Params): string | null {
    if (q.client_id !== config.discord.clientId) return 'Unknown application (client_id).';
    if (!q.redirect_uri || !registeredRedirects.includes(q.redirect_uri)) return 'Invalid OAuth2 redirect_uri.';
    if (q.response_type !== 'code') return 'Invalid response_type: only "code" is supported.';
    if (!(q.scope ?? '').split(/[\s+]+/).includes('identify')) return 'The "identify" scope is required.';
    return null;
  }

  function errorPage(reply: FastifyReply, message: string) {
    return sendSandboxPage(
      reply,
      400,
      'Discord sandbox: invalid request',
      `<h1>Invalid authorization request</h1><p class="error" role="alert">${escapeHtml(message)}</p>`,
    );
  }

  function consentPage(reply: FastifyReply, q: Params, usernameError: string | null) {
    const hidden = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state']
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(q[name] ?? '')}">`)
      .join('\n');
    const username = q.username ?? DISCORD_SANDBOX_DEFAULT_USERNAME;
    const host = new URL(q.redirect_uri!).host;
    return sendSandboxPage(
      reply,
      usernameError ? 400 : 200,
      'Discord sandbox: authorize Olympus',
      `<h1>Olympus wants to access your Discord account</h1>
<p>This is the local imitation of Discord's consent screen. Approving sends you back to <strong>${escapeHtml(host)}</strong> with an authorization code.</p>
<ul><li>Access your username and avatar (scope <code>identify</code>)</li>${
        (q.scope ?? '').split(/[\s+]+/).includes('guilds.join')
          ? '<li>Join the Olympus server, so its bot can send you notifications (scope <code>guilds.join</code>)</li>'
          : ''
      }</ul>
<form method="post" action="${DISCORD_SANDBOX_AUTHORIZE_PATH}">
${hidden}
<label for="username">Sandbox Discord username</label>
<input id="username" name="username" value="${escapeHtml(username)}" autocomplete="off" aria-describedby="username-hint${usernameError ? ' username-error' : ''}"${usernameError ? ' aria-invalid="true"' : ''}>
<p class="hint" id="username-hint">The same username is always the same Discord account.</p>
${usernameError ? `<p class="hint error" id="username-error" role="alert">${escapeHtml(usernameError)}</p>` : ''}
<div class="actions">
<button class="secondary" type="submit" name="decision" value="cancel">Cancel</button>
<button class="primary" type="submit" name="decision" value="approve">Authorize</button>
</div>
</form>`,
      redirectOrigins,
    );
  }

  app.get('/discord/oauth2/authorize', { schema: { hide: true } }, async (request, reply) => {
    const q = request.query as Params;
    const problem = authorizeProblem(q);
    if (problem) return errorPage(reply, problem);
    return consentPage(reply, q, null);
  });

  app.post('/discord/oauth2/authorize', { schema: { hide: true } }, async (request, reply) => {
    const form = (request.body ?? {}) as Params;
    const problem = authorizeProblem(form);
    if (problem) return errorPage(reply, problem);
    const target = new URL(form.redirect_uri!);
    if (form.decision !== 'approve') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
      if (form.state) target.searchParams.set('state', form.state);
      return reply.redirect(target.toString(), 302);
    }
    const username = (form.username ?? '').trim().toLowerCase();
    if (!USERNAME_PATTERN.test(username)) {
      return consentPage(reply, form, 'Use 2 to 32 lowercase letters, digits, dots or underscores.');
    }
    const code = randomBytes(20).toString('hex');
    await db.insert(discordSandboxGrants).values({
      code,
      clientId: config.discord.clientId,
      redirectUri: form.redirect_uri!,
      scope: form.scope ?? 'identify',
      discordUserId: sandboxDiscordId(username),
      username,
      avatar: sandboxDiscordAvatar(username),
      codeExpiresAt: new Date(Date.now() + CODE_TTL_S * 1000),
    });
    target.searchParams.set('code', code);
    if (form.state) target.searchParams.set('state', form.state);
    return reply.redirect(target.toString(), 302);
  });

  /** Client credentials from HTTP Basic or the form, as Discord accepts both. */
  function clientCredentials(request: FastifyRequest, form: Params): { id?: string; secret?: string } {
    const header = request.headers.authorization;
    if (typeof header === 'string' && /^Basic /i.test(header)) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i > 0) return { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
    }
    return { id: form.client_id, secret: form.client_secret };
  }

  app.post('/discord/api/oauth2/token', { schema: { hide: true } }, async (request, reply) => {
    const contentType = request.headers['content-type'] ?? '';
    if (!contentType.startsWith('application/x-www-form-urlencoded')) {
      return reply
        .status(400)
        .send({ error: 'invalid_request', error_description: 'Content-Type must be application/x-www-form-urlencoded' });
    }
    const form = (request.body ?? {}) as Params;
    const client = clientCredentials(request, form);
    if (client.id !== config.discord.clientId || !client.secret || !safeEqual(client.secret, config.discord.clientSecret)) {
      return reply.status(401).send({ error: 'invalid_client' });
    }
    if (form.grant_type !== 'authorization_code') {
      return reply.status(400).send({ error: 'unsupported_grant_type' });
    }
    const accessToken = randomBytes(24).toString('base64url');
    // One statement spends the code: a second exchange of the same code finds nothing.
    const [grant] = await db
      .update(discordSandboxGrants)
      .set({ codeUsedAt: sql`now()`, accessToken, tokenExpiresAt: new Date(Date.now() + TOKEN_TTL_S * 1000) })
      .where(
        and(
          eq(discordSandboxGrants.code, form.code ?? ''),
          eq(discordSandboxGrants.clientId, client.id),
          eq(discordSandboxGrants.redirectUri, form.redirect_uri ?? ''),
          isNull(discordSandboxGrants.codeUsedAt),
          gt(discordSandboxGrants.codeExpiresAt, sql`now()`),
        ),
      )
      .returning();
    if (!grant) {
      return reply.status(400).send({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    }
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_S,
      refresh_token: randomBytes(24).toString('base64url'),
      scope: grant.scope,
    };
  });

  app.get('/discord/api/users/@me', { schema: { hide: true } }, async (request, reply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const [grant] = match
      ? await db
          .select()
          .from(discordSandboxGrants)
          .where(and(eq(discordSandboxGrants.accessToken, match[1]!), gt(discordSandboxGrants.tokenExpiresAt, sql`now()`)))
          .limit(1)
      : [];
    if (!grant) return reply.status(401).send({ message: '401: Unauthorized', code: 0 });
    return {
      id: grant.discordUserId,
      username: grant.username,
      avatar: grant.avatar,
      discriminator: '0',
      public_flags: 0,
      flags: 0,
      banner: null,
      accent_color: null,
      global_name: grant.username,
      avatar_decoration_data: null,
      mfa_enabled: false,
      locale: 'en-US',
      premium_type: 0,
    };
  });
}

/** A placeholder avatar: a circle in a colour taken from the hash, and a head-and-shoulders figure. No text from the request. */
export function sandboxAvatarSvg(hash: string): string {
  const hue = parseInt(hash.slice(0, 6), 16) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
<circle cx="64" cy="64" r="64" fill="hsl(${hue} 55% 45%)"/>
<circle cx="64" cy="50" r="22" fill="#fff" fill-opacity=".9"/>
<path d="M24 110c6-22 22-32 40-32s34 10 40 32" fill="#fff" fill-opacity=".9"/>
</svg>`;
}

/**
 * A sandbox Discord account's avatar, at DISCORD_SANDBOX_AVATAR_PATH in place of Discord's CDN: a
 * sandboxed product loads nothing from the internet (decision 0231).
 */
export function registerDiscordSandboxAvatars(app: FastifyInstance): void {
  app.get('/discord/avatars/:userId/:file', { schema: { hide: true } }, async (request, reply) => {
    const { userId, file } = request.params as { userId: string; file: string };
    const match = /^([0-9a-f]{32})\.(svg|png)$/.exec(file);
    if (!/^\d{1,20}$/.test(userId) || !match) return reply.status(404).send({ message: '404: Not Found', code: 0 });
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('x-content-type-options', 'nosniff')
      .send(sandboxAvatarSvg(match[1]!));
  });
}
