import { api } from '#web/lib/api-client';

/** DELETE /api/users/disconnect/telegram. */
export async function disconnectTelegram(): Promise<void> {
  await api.delete('/api/users/disconnect/telegram');
}
