/**
 * The browser's session (docs/product.md#browser-state, #states): who is signed in and with which token,
 * and every transition between signed out, guest and signed in. Client state only: the signed-in user's
 * profile and balance are server state, in the query cache (`../api/get-session-user.ts`,
 * `../api/get-credits.ts`; docs/decisions/0245). No API call and no React here beyond zustand's hook, so
 * each transition can be tested on its own; the calls that lead to them are in `../api/`.
 */
import { create } from 'zustand';
import type { AuthResponse, GuestUser, User } from '#shared/schemas/auth';
import { isTokenExpired } from '#shared/token';
import { onTokenChange } from '#web/lib/api-client';
import { storage, type UserType } from '#web/lib/storage';

export type SessionUser = User | GuestUser;

/**
 * The session fields of docs/product.md#browser-state that are client state. `user` and `credits` are
 * read through `useSessionUser()` and `useCredits()`; `userId` says whose they are.
 */
export interface SessionState {
  isAuthenticated: boolean;
  isGuest: boolean;
  userType: UserType | null;
  sessionChecked: boolean;
  token: string | null;
  /** When the session was last established or checked (ms since epoch). */
  lastCheck: number | null;
  error: string | null;
  guestId: string | null;
  /** The signed-in user's id (a guest's is the guestId); null when signed out. */
  userId: string | null;
  isLoading: boolean;
}

export interface LoginInput {
  username: string;
  password: string;
  turnstileToken: string;
  rememberMe: boolean;
}

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
  turnstileToken: string;
  referralCode?: string;
}

export interface SessionActions {
  /** A sign-in, registration or guest start is under way. */
  begin(): void;
  /** It failed: `error` says why (docs/product.md#errors). */
  fail(error: string): void;
  /** A call ended without changing the session (a two-factor challenge). */
  idle(): void;
  /** Stores a finished sign-in (login, registration, the second step or a passkey) and returns its user. */
  completeSignIn(response: AuthResponse, rememberMe?: boolean): User;
  startGuest(guestId: string, token: string): void;
  /** The start-up check read the user for a stored token. */
  userChecked(user: SessionUser, token: string): void;
  /** docs/product.md#states: a failed user fetch sets userType guest and removes the token and guestId. */
  userFetchFailed(error: string): void;
  /** docs/product.md#states: a failed refresh removes the stored token and resets the user state. */
  refreshFailed(error: string): void;
  /** Clears the session, keeping why in `error`. */
  reject(reason: string): void;
  clearSession(): void;
  /** After the server ended the session: all of local storage goes (docs/product.md#states). */
  signedOut(): void;
}

export type SessionStore = SessionState & SessionActions;

export const SESSION_ERRORS = {
  login: 'Login failed',
  register: 'Registration failed',
  guest: 'Could not start a guest session',
  fetchUser: 'Failed to fetch user',
  fetchCredits: 'Failed to fetch credits',
  onboarding: 'Failed to update onboarding',
  invalidToken: 'Invalid or expired token received',
} as const;

/** Why the start-up check ended signed out (docs/product.md#errors); kept in `error` after the session is cleared. */
export const AUTH_REJECTIONS = {
  noToken: 'No token found',
  refreshFailed: 'Token refresh failed',
  userFetchFailed: 'User fetch failed',
  failed: 'Authentication failed',
} as const;

// ---- Pure transitions -------------------------------------------------------------------------------

/** A signed-out, checked session. */
export function clearedState(now = Date.now()): SessionState {
  return {
    isAuthenticated: false,
    isGuest: false,
    userType: null,
    sessionChecked: true,
    token: null,
    lastCheck: now,
    error: null,
    guestId: null,
    userId: null,
    isLoading: false,
  };
}

export const initialSessionState: SessionState = { ...clearedState(0), sessionChecked: false, lastCheck: null };

/** Signed in as a registered user. */
export function authenticatedState(user: User, token: string, now = Date.now()): SessionState {
  return {
    isAuthenticated: true,
    isGuest: false,
    userType: 'user',
    sessionChecked: true,
    token,
    lastCheck: now,
    error: null,
    guestId: null,
    userId: user._id,
    isLoading: false,
  };
}

export function guestState(guestId: string, token: string, now = Date.now()): SessionState {
  return {
    isAuthenticated: false,
    isGuest: true,
    userType: 'guest',
    sessionChecked: true,
    token,
    lastCheck: now,
    error: null,
    guestId,
    userId: guestId,
    isLoading: false,
  };
}

/** After a failed refresh: no token and no user; the guest id, if any, is kept. */
export function userResetState(state: SessionState, error: string | null): SessionState {
  return { ...state, isAuthenticated: false, token: null, userId: null, error, isLoading: false };
}

/** The user a guest session stands for (docs/product.md#browser-state): nothing to ask the server. */
export function guestUser(guestId: string): GuestUser {
  return { _id: guestId, role: 'guest', isGuest: true };
}

export function isGuestUser(user: SessionUser | null | undefined): user is GuestUser {
  return !!user && 'isGuest' in user && user.isGuest === true;
}

// ---- Login hooks: the extension point for work that follows a sign-in ----------------------------------

export type LoginHook = (user: User) => void | Promise<void>;
const loginHooks = new Set<LoginHook>();

/**
 * Runs `hook` after every non-guest sign-in (login or registration), e.g. redeeming guest reward claims
 * (docs/product.md#guest-claims). Hooks run after the session is set and never block or fail the sign-in.
 */
export function onUserLogin(hook: LoginHook): () => void {
  loginHooks.add(hook);
  return () => loginHooks.delete(hook);
}

/** Called by the sign-in calls once the session and the query cache hold the new user. */
export function runLoginHooks(user: User): void {
  runUserHooks(user);
  for (const hook of loginHooks) {
    void Promise.resolve()
      .then(() => hook(user))
      .catch((err: unknown) => console.error('A sign-in hook failed', err));
  }
}

const userHooks = new Set<(user: User) => void>();

/**
 * Runs `hook` whenever a signed-in user becomes known: at the start-up check of a stored session and
 * after every sign-in (the account's language, decision 0326). Synchronous and never fails the session.
 */
export function onSessionUser(hook: (user: User) => void): () => void {
  userHooks.add(hook);
  return () => userHooks.delete(hook);
}

function runUserHooks(user: User): void {
  for (const hook of userHooks) {
    try {
      hook(user);
    } catch (err) {
      console.error('A session user hook failed', err);
    }
  }
}

// ---- Persistence ------------------------------------------------------------------------------------

function persistUser(user: User, token: string, rememberMe?: boolean): void {
  storage.setToken(token, rememberMe);
  // A signed-in user is no longer a guest: the server moved the guest's data to the account, and a stored
  // guestId would make the next start a guest session.
  storage.removeGuestId();
  storage.setUserType('user');
  storage.setUserRole(user.role);
  storage.setUserSubroles(user.subroles);
  storage.setSessionData({ userId: user._id, userType: 'user', lastCheck: Date.now() });
}

function persistGuest(guestId: string, token: string): void {
  storage.setToken(token, false);
  storage.setGuestId(guestId);
  storage.setUserType('guest');
  storage.setUserRole('guest');
  storage.setUserSubroles([]);
  storage.setSessionData({ userId: guestId, userType: 'guest', lastCheck: Date.now() });
}

// ---- The store --------------------------------------------------------------------------------------

export const useSessionStore = create<SessionStore>()((set, get) => ({
  ...initialSessionState,

  begin() {
    set({ isLoading: true, error: null });
  },

  fail(error) {
    set({ isLoading: false, error });
  },

  idle() {
    set({ isLoading: false });
  },

  completeSignIn(response, rememberMe) {
    if (!response?.token || isTokenExpired(response.token)) throw new Error(SESSION_ERRORS.invalidToken);
    persistUser(response.user, response.token, rememberMe);
    set(authenticatedState(response.user, response.token));
    return response.user;
  },

  startGuest(guestId, token) {
    persistGuest(guestId, token);
    set(guestState(guestId, token));
  },

  userChecked(user, token) {
    if (isGuestUser(user)) {
      persistGuest(user._id, token);
      set(guestState(user._id, token));
    } else {
      persistUser(user, token);
      set(authenticatedState(user, token));
      runUserHooks(user);
    }
  },

  userFetchFailed(error) {
    storage.removeToken();
    storage.removeGuestId();
    set({ userType: 'guest', token: null, guestId: null, userId: null, isAuthenticated: false, error });
  },

  refreshFailed(error) {
    storage.removeToken();
    set(userResetState(get(), error));
  },

  reject(reason) {
    get().clearSession();
    set({ error: reason });
  },

  clearSession() {
    storage.clearSession();
    set(clearedState());
  },

  signedOut() {
    // The auth header is built from storage on every request, so clearing storage clears it too.
    storage.clearAll();
    set(clearedState());
  },
}));

// The client renews or drops the token on its own (before a request, or after a 401): mirror it here.
onTokenChange((token) => {
  if (token) useSessionStore.setState({ token });
  else useSessionStore.setState((state) => userResetState(state, state.error));
});

/** Selector: the signed-in (registered) user's id, or null for a guest or nobody. */
export const signedInUserId = (state: SessionState): string | null => (state.isAuthenticated && !state.isGuest ? state.userId : null);
