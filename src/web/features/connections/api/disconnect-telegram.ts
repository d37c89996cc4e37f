import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { setSessionConnection } from '../lib/session-connections';

/** DELETE /api/users/disconnect/telegram. */
export async function disconnectTelegram(): Promise<void> {
  await api.delete('/api/users/disconnect/telegram');
}

/** Disconnects Telegram; the signed-in user in the session loses it at once. */
export function useDisconnectTelegram() {
  return useMutation({ mutationFn: disconnectTelegram, onSuccess: () => setSessionConnection('telegram', null) });
}
