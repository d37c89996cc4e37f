import type { DiscordIdentityDto } from '#shared/schemas/connections';
import type { User } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';

/** An authorize URL whose `state` the server bound to this session (single use, about 10 minutes). */
export async function getDiscordAuthorizeUrl(): Promise<string> {
  const { url } = await api.get<{ url: string }>('/api/auth/discord/authorize-url');
  return url;
}

/** Spec section 7: POST /api/auth/discord-exchange; the state goes along so the server can check it. */
export function exchangeDiscordCode(code: string, state: string | null): Promise<Partial<DiscordIdentityDto> | undefined> {
  return api.post<Partial<DiscordIdentityDto> | undefined>('/api/auth/discord-exchange', { code, state: state ?? '' });
}

export async function connectDiscord(identity: DiscordIdentityDto): Promise<NonNullable<User['discord']>> {
  const { discord } = await api.post<{ discord: NonNullable<User['discord']> }>('/api/users/connect/discord', {
    discordId: identity.id,
    username: identity.username,
    avatar: identity.avatar,
  });
  return discord;
}

export async function disconnectDiscord(): Promise<void> {
  await api.delete('/api/users/disconnect/discord');
}
