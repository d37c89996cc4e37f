import type { DiscordConfig } from '#server/config.js';
import { AppError } from '#server/errors.js';

/** What Discord's `/users/@me` answers with the `identify` scope (docs/providers.md). */
export interface DiscordUser {
  id: string;
  username: string;
  avatar: string | null;
  global_name?: string | null;
}

interface TokenResponse {
  access_token?: string;
  token_type?: string;
  error?: string;
  error_description?: string;
}

const TIMEOUT_MS = 10_000;

export const DISCORD_AUTHORIZE_PATH = '/oauth2/authorize';
/** The consent page of this server's Discord sandbox (mounted under /sandbox/discord). */
export const DISCORD_SANDBOX_AUTHORIZE_PATH = `/sandbox/discord${DISCORD_AUTHORIZE_PATH}`;

/**
 * A real HTTP client for Discord's OAuth2 (docs/providers.md): the code is swapped at the token endpoint
 * (form-encoded only, client secret in the form) and the identity read from `/users/@me`.
 * `apiBase` is Discord's API, or this server's own sandbox.
 */
export class DiscordClient {
  constructor(
    private readonly config: DiscordConfig,
    private readonly apiBase: () => string,
  ) {}

  authorizeUrl(authorizeBase: string, redirectUri: string, state: string): string {
    const url = new URL(authorizeBase);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.config.clientId,
      // guilds.join lets the bot add the person to the product's server, so it may send them DMs.
      scope: this.config.bot ? 'identify guilds.join' : 'identify',
      redirect_uri: redirectUri,
      state,
      prompt: 'consent',
    }).toString();
    return url.toString();
  }

  /** Swaps an authorization code for an access token; a refused code answers 400 with Discord's reason. */
  async exchangeCode(code: string, redirectUri: string): Promise<string> {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
    });
    let res: Response;
    let data: TokenResponse;
    try {
      res = await fetch(`${this.apiBase()}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      data = (await res.json()) as TokenResponse;
    } catch {
      throw unavailable();
    }
    if (res.ok && typeof data.access_token === 'string' && data.access_token) return data.access_token;
    if (res.status === 400 && data.error === 'invalid_grant') {
      throw new AppError('DISCORD_CODE_REJECTED', 'Discord did not accept the authorization code. Please try connecting again.', {
        details: { error_description: data.error_description ?? data.error },
      });
    }
    if (res.status === 401 || data.error === 'invalid_client') {
      // The operator's client id or secret is wrong: not the user's fault, and not theirs to fix.
      throw new AppError('DISCORD_CLIENT_REJECTED', "Discord refused this site's credentials. Please try again later.");
    }
    if (res.status === 429 || res.status >= 500) throw unavailable();
    throw new AppError('DISCORD_BAD_RESPONSE', 'Discord answered unexpectedly. Please try again later.', {
      details: { error_description: data.error_description ?? data.error ?? `status ${res.status}` },
    });
  }

  /** Adds the user to the product's server with their access token (see `joinGuild`). */
  joinGuild(discordUserId: string, accessToken: string): Promise<GuildJoin> {
    return joinGuild(this.config, this.apiBase(), discordUserId, accessToken);
  }

  async fetchCurrentUser(accessToken: string): Promise<DiscordUser> {
    let res: Response;
    let data: Partial<DiscordUser>;
    try {
      res = await fetch(`${this.apiBase()}/users/@me`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      data = (await res.json()) as Partial<DiscordUser>;
    } catch {
      throw unavailable();
    }
    if (!res.ok || typeof data.id !== 'string' || !/^\d{1,20}$/.test(data.id) || typeof data.username !== 'string') {
      if (res.status === 429 || res.status >= 500) throw unavailable();
      throw new AppError('DISCORD_BAD_RESPONSE', 'Discord did not return your account. Please try again.');
    }
    return {
      id: data.id,
      username: data.username,
      avatar: typeof data.avatar === 'string' ? data.avatar : null,
      global_name: data.global_name ?? null,
    };
  }
}

export type GuildJoin = 'joined' | 'already-member' | 'no-bot' | `refused: ${string}` | 'unavailable';

/**
 * Adds the user to the product's server (`PUT /guilds/{guild.id}/members/{user.id}` with the user's
 * `guilds.join` access token and the bot's token; 201 added, 204 already there), so the bot shares a
 * server with them and may DM them. Answers what happened; never throws.
 */
export async function joinGuild(config: DiscordConfig, apiBase: string, discordUserId: string, accessToken: string): Promise<GuildJoin> {
  if (!config.bot) return 'no-bot';
  try {
    const res = await fetch(`${apiBase}/guilds/${config.bot.guildId}/members/${discordUserId}`, {
      method: 'PUT',
      headers: { authorization: `Bot ${config.bot.token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ access_token: accessToken }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status === 201) return 'joined';
    if (res.status === 204) return 'already-member';
    const data = (await res.json().catch(() => ({}))) as { code?: number; message?: string };
    if (res.status === 429 || res.status >= 500) return 'unavailable';
    return `refused: ${res.status} ${data.code ?? ''} ${typeof data.message === 'string' ? data.message.slice(0, 100) : ''}`.trim() as GuildJoin;
  } catch {
    return 'unavailable';
  }
}

function unavailable(): AppError {
  return new AppError('DISCORD_UNAVAILABLE', 'Discord could not be reached. Please try again in a moment.');
}
