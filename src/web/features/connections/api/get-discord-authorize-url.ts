import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** GET /api/auth/discord/authorize-url: a URL whose `state` the server bound to this session (single use, about 10 minutes). */
export async function getDiscordAuthorizeUrl(): Promise<string> {
  const { url } = await api.get<{ url: string }>('/api/auth/discord/authorize-url');
  return url;
}

/**
 * Asks for a fresh authorize URL when "Connect Discord" is pressed. A mutation, not a query: each URL
 * carries a new single-use state the server just bound, so it is never cached or shared.
 */
export function useDiscordAuthorizeUrl() {
  return useMutation({ mutationFn: getDiscordAuthorizeUrl });
}
