import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionInfo } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';

export const sessionsQueryKey = ['auth', 'sessions'] as const;

/** GET /api/auth/sessions: the signed-in user's active sessions, the current one first, then the most recently used. */
export async function listSessions(signal?: AbortSignal): Promise<SessionInfo[]> {
  const { sessions } = await api.get<{ sessions: SessionInfo[] }>('/api/auth/sessions', { signal });
  return sessions.sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
}

export const sessionsQueryOptions = () => queryOptions({ queryKey: sessionsQueryKey, queryFn: ({ signal }) => listSessions(signal) });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
