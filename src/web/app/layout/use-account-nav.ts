import { useSessionStore } from '#web/features/auth/stores/session-store';
import { storage } from '#web/lib/storage';

export type AccountNav = { kind: 'signed-in' } | { kind: 'signed-out' } | { kind: 'checking' };

/**
 * Which account links the header shows: Dashboard for a signed-in (non-guest) user, Login and
 * Register for everyone else. While a stored user session is still being checked at start-up neither is
 * shown, so a returning user does not see Login flash before Dashboard.
 */
export function useAccountNav(): AccountNav {
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const isGuest = useSessionStore((s) => s.isGuest);
  const sessionChecked = useSessionStore((s) => s.sessionChecked);

  if (isAuthenticated && !isGuest) return { kind: 'signed-in' };
  if (!sessionChecked && storage.getUserType() === 'user' && storage.getToken()) return { kind: 'checking' };
  return { kind: 'signed-out' };
}
