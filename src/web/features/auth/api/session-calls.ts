import { AUTH_CHECK_DELAY_MS } from '#shared/constants';
import type { GuestUser } from '#shared/schemas/auth';
import { isTokenExpired, readTokenClaims } from '#shared/token';
import { errorMessage } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';
import { AUTH_REJECTIONS, SESSION_ERRORS, useSessionStore, type SessionUser } from '../stores/session-store';
import { sessionApi } from './session';

/*
 * The session's calls that run outside React and before the query library is loaded: the start-up
 * check (main.tsx) and a guest start (the home page's button, a first exchange). Free of TanStack Query
 * on purpose: the shell imports this file, and the home page's first load must not carry the library
 * (docs/decisions/0093, 0245). When there is a token to check, the user's query file is loaded then.
 */

/** Marks the session busy, runs `call`, and on failure keeps a message fit to show in `error`. */
export async function attempt<T>(fallback: string, call: () => Promise<T>): Promise<T> {
  const session = useSessionStore.getState();
  session.begin();
  try {
    return await call();
  } catch (err) {
    session.fail(err instanceof Error && err.message === SESSION_ERRORS.invalidToken ? err.message : errorMessage(err, fallback));
    throw err;
  }
}

/** POST /api/guest: a guest session (docs/product.md#states). */
export function startGuestSession(): Promise<GuestUser> {
  return attempt(SESSION_ERRORS.guest, async () => {
    const response = await sessionApi.guest();
    useSessionStore.getState().startGuest(response.guestId, response.token);
    return response.user;
  });
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Renews a registered user's token; null for a guest token (guests never refresh) or a failed renewal. */
async function renewToken(token: string | null): Promise<string | null> {
  if (storage.getUserType() === 'guest' || readTokenClaims(token)?.isGuest === true) return null;
  try {
    const renewed = await sessionApi.refresh();
    useSessionStore.setState({ token: renewed, error: null });
    return renewed;
  } catch (err) {
    useSessionStore.getState().refreshFailed(errorMessage(err, AUTH_REJECTIONS.refreshFailed));
    return null;
  }
}

/**
 * The check when the app starts (docs/product.md#states): a stored guestId makes a guest session; no
 * token clears the session; an expired one is renewed first; after 500 ms the user is fetched into the
 * query cache, and success signs in. Never throws: a check that broke starts signed out.
 */
export async function checkSession(): Promise<void> {
  const session = () => useSessionStore.getState();
  useSessionStore.setState({ isLoading: true });
  try {
    const guestId = storage.getGuestId();
    let token = storage.getToken();

    if (guestId) {
      // Guests cannot refresh, so a guest whose token has run out starts over as a visitor.
      if (!token) session().reject(AUTH_REJECTIONS.noToken);
      else if (isTokenExpired(token)) session().reject(AUTH_REJECTIONS.failed);
      else session().startGuest(guestId, token);
      return;
    }
    if (!token) {
      session().reject(AUTH_REJECTIONS.noToken);
      return;
    }
    if (isTokenExpired(token)) {
      token = await renewToken(token);
      if (!token) {
        session().reject(AUTH_REJECTIONS.refreshFailed);
        return;
      }
    }

    await wait(AUTH_CHECK_DELAY_MS);
    let user: SessionUser;
    try {
      const { loadSessionUser } = await import('./get-session-user');
      user = await loadSessionUser();
    } catch (err) {
      session().userFetchFailed(errorMessage(err, SESSION_ERRORS.fetchUser));
      session().reject(AUTH_REJECTIONS.userFetchFailed);
      return;
    }
    session().userChecked(user, storage.getToken() ?? token);
  } catch (err) {
    // Never leave the app waiting on a check that broke: start signed out.
    console.error('The session check failed', err);
    session().reject(AUTH_REJECTIONS.failed);
  }
}
