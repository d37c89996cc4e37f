import type { User } from '#shared/schemas/auth';
import type { DiscordIdentityDto } from '#shared/schemas/connections';
import { api } from '#web/lib/api-client';

/** POST /api/users/connect/discord: links the exchanged Discord identity to this user. */
export async function connectDiscord(identity: DiscordIdentityDto): Promise<NonNullable<User['discord']>> {
  const { discord } = await api.post<{ discord: NonNullable<User['discord']> }>('/api/users/connect/discord', {
    discordId: identity.id,
    username: identity.username,
    avatar: identity.avatar,
  });
  return discord;
}
