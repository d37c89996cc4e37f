import { api } from '#web/lib/api-client';

/** GET /api/auth/discord/authorize-url: a URL whose `state` the server bound to this session (single use, about 10 minutes). */
export async function getDiscordAuthorizeUrl(): Promise<string> {
  const { url } = await api.get<{ url: string }>('/api/auth/discord/authorize-url');
  return url;
}
