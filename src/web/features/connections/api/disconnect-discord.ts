import { api } from '#web/lib/api-client';

/** DELETE /api/users/disconnect/discord. */
export async function disconnectDiscord(): Promise<void> {
  await api.delete('/api/users/disconnect/discord');
}
