import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { useSessionStore } from '../stores/session-store';
import { sessionKeys } from './session-keys';

type VerifyEmailResponse = { success: true; message: string; emailVerified: true };

/**
 * POST /api/auth/verify-email: spends the link's token and marks the address confirmed. The token is
 * single use and React StrictMode mounts twice in development: the query cache sends it once per page
 * and hands every mount the outcome (the pattern of the connection callbacks).
 */
export function useVerifyEmail(token: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['auth', 'verify-email', token],
    queryFn: async () => {
      const answer = await api.post<VerifyEmailResponse>('/api/auth/verify-email', { token });
      // A signed-in user's banner goes away: the user object now says emailVerified.
      if (useSessionStore.getState().isAuthenticated) void client.invalidateQueries({ queryKey: sessionKeys.user });
      return answer;
    },
    enabled: token !== '',
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnMount: false,
    refetchOnReconnect: false,
  });
}
