import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { queryClient } from '#web/lib/query-client';
import { useMemo } from 'react';
import { guestUser, isGuestUser, useSessionStore, type SessionUser } from '../stores/session-store';
import { sessionApi } from './session';
import { sessionKeys } from './session-keys';

/**
 * GET /api/auth/me: the signed-in user as the API shows it (docs/product.md#browser-state). Server
 * state, so it lives in the query cache only; the session store knows whose it is (`userId`).
 * Sign-in, registration and the start-up check put the answer there, and changes to the user
 * (onboarding, connections, a confirmed address) update or invalidate it.
 */
export const sessionUserQueryOptions = queryOptions({
  queryKey: sessionKeys.user,
  queryFn: async (): Promise<SessionUser> => (await sessionApi.me()).user,
  staleTime: 60_000,
  retry: false,
});

/** Puts a user that just signed in (or was checked) into the cache, with the balance it came with. */
export function rememberSessionUser(client: QueryClient, user: SessionUser): void {
  client.setQueryData(sessionKeys.user, user);
  if (!isGuestUser(user)) client.setQueryData(sessionKeys.credits(user._id), user.credits);
}

/** The start-up check's user fetch (../api/session-calls.ts loads this file only when there is a token). */
export async function loadSessionUser(): Promise<SessionUser> {
  const user = await queryClient.fetchQuery(sessionUserQueryOptions);
  rememberSessionUser(queryClient, user);
  return user;
}

/**
 * Who is signed in, as the screens show it: the user from the cache while signed in, the guest user
 * for a guest session (made from the guestId, nothing to ask), null when signed out or not read yet.
 */
export function useSessionUser(): SessionUser | null {
  const signedIn = useSessionStore((s) => s.isAuthenticated && !s.isGuest);
  const guestId = useSessionStore((s) => (s.isGuest ? s.guestId : null));
  const { data } = useQuery({ ...sessionUserQueryOptions, enabled: signedIn });
  const guest = useMemo(() => (guestId ? guestUser(guestId) : null), [guestId]);
  if (guest) return guest;
  return signedIn && data && !isGuestUser(data) ? data : null;
}
