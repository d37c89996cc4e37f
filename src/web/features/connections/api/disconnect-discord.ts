import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { setSessionConnection } from '../lib/session-connections';

/** DELETE /api/users/disconnect/discord. */
export async function disconnectDiscord(): Promise<void> {
  await api.delete('/api/users/disconnect/discord');
}

/** Disconnects Discord; the signed-in user in the session loses it at once. */
export function useDisconnectDiscord() {
  return useMutation({ mutationFn: disconnectDiscord, onSuccess: () => setSessionConnection('discord', null) });
}
