import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { sessionsQueryKey } from './get-sessions';

/** DELETE /api/auth/sessions/{id}: sign out one other device. */
export async function endSession(sessionId: string): Promise<void> {
  await api.delete(`/api/auth/sessions/${encodeURIComponent(sessionId)}`);
}

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({ mutationFn: endSession, onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryKey }) });
}
