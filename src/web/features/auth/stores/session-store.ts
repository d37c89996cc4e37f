/**
 * The browser's session (docs/product.md#browser-state, #states): who is signed in, their token and credits, and every
 * transition between signed out, guest and signed in. No React here beyond zustand's hook, so each
 * transition can be tested on its own; pages call these actions and decide what to show.
 */
import { create } from 'zustand';
import { AUTH_CHECK_DELAY_MS } from '#shared/constants';
import type { AuthResponse, GuestUser, User } from '#shared/schemas/auth';
import type { TwoFactorChallengeResponse } from '#shared/schemas/two-factor';
import { isTokenExpired, readTokenClaims } from '#shared/token';
import { errorMessage, onTokenChange } from '#web/lib/api-client';
import { storage, type UserType } from '#web/lib/storage';
import { sessionApi } from '../api/session';

export type SessionUser = User | GuestUser;

/** Exactly the session fields of docs/product.md#browser-state. */
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
  user: SessionUser | null;
  credits: number;
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
  checkAuth(): Promise<void>;
  /** Resolves with the user, or with a challenge when the account has two-factor on (no session yet). */
  login(input: LoginInput): Promise<User | TwoFactorChallengeResponse>;
  /** Stores a sign-in that finished elsewhere (the second step, or a passkey) exactly as login does. */
  completeSignIn(response: AuthResponse, rememberMe: boolean): User;
  guestLogin(): Promise<GuestUser>;
  register(input: RegisterInput): Promise<User>;
  /** Resolves true when the server ended the session; a failure is only logged (docs/product.md#errors). */
  logout(): Promise<boolean>;
  clearSession(): void;
  /** Resolves with the new token, or null for guests (they never refresh). */
  refreshToken(): Promise<string | null>;
  fetchUser(): Promise<SessionUser>;
  fetchCredits(): Promise<number>;
  completeOnboarding(completed?: boolean): Promise<User>;
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
    user: null,
    credits: 0,
    isLoading: false,
  };
}

export const initialSessionState: SessionState = { ...clearedState(0), sessionChecked: false, lastCheck: null };

/** Signed in as a registered user; credits come from the user. */
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
    user,
    credits: user.credits,
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
    user: { _id: guestId, role: 'guest', isGuest: true },
    credits: 0,
    isLoading: false,
  };
}

/** After a failed refresh: no token and no user; the guest id, if any, is kept. */
export function userResetState(state: SessionState, error: string | null): SessionState {
  return { ...state, isAuthenticated: false, token: null, user: null, credits: 0, error, isLoading: false };
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

function runLoginHooks(user: User): void {
  for (const hook of loginHooks) {
    void Promise.resolve()
      .then(() => hook(user))
      .catch((err: unknown) => console.error('A sign-in hook failed', err));
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

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---- The store --------------------------------------------------------------------------------------

export const useSessionStore = create<SessionStore>()((set, get) => ({
  ...initialSessionState,

  async checkAuth() {
    set({ isLoading: true });
    const reject = (reason: string) => {
      get().clearSession();
      set({ error: reason });
    };
    try {
      const guestId = storage.getGuestId();
      let token = storage.getToken();

      if (guestId) {
        // Guests cannot refresh, so a guest whose token has run out starts over as a visitor.
        if (!token) reject(AUTH_REJECTIONS.noToken);
        else if (isTokenExpired(token)) reject(AUTH_REJECTIONS.failed);
        else set(guestState(guestId, token));
        return;
      }
      if (!token) {
        reject(AUTH_REJECTIONS.noToken);
        return;
      }
      if (isTokenExpired(token)) {
        try {
          token = await get().refreshToken();
        } catch {
          token = null;
        }
        if (!token) {
          reject(AUTH_REJECTIONS.refreshFailed);
          return;
        }
      }

      await wait(AUTH_CHECK_DELAY_MS);
      let user: SessionUser;
      try {
        user = await get().fetchUser();
      } catch {
        reject(AUTH_REJECTIONS.userFetchFailed);
        return;
      }
      const current = storage.getToken() ?? token;
      if (isGuestUser(user)) {
        persistGuest(user._id, current);
        set(guestState(user._id, current));
      } else {
        persistUser(user, current);
        set(authenticatedState(user, current));
      }
    } catch (err) {
      // Never leave the app waiting on a check that broke: start signed out.
      console.error('The session check failed', err);
      reject(AUTH_REJECTIONS.failed);
    }
  },

  async login(input) {
    set({ isLoading: true, error: null });
    try {
      const response = await sessionApi.login({
        username: input.username,
        password: input.password,
        guestId: storage.getGuestId(),
        turnstileToken: input.turnstileToken,
        rememberMe: input.rememberMe,
      });
      if (response && 'twoFactorRequired' in response && response.twoFactorRequired) {
        set({ isLoading: false });
        return response;
      }
      return get().completeSignIn(response as AuthResponse, input.rememberMe);
    } catch (err) {
      const message = err instanceof Error && err.message === SESSION_ERRORS.invalidToken ? err.message : errorMessage(err, SESSION_ERRORS.login);
      set({ isLoading: false, error: message });
      throw err;
    }
  },

  completeSignIn(response, rememberMe) {
    if (!response?.token || isTokenExpired(response.token)) throw new Error(SESSION_ERRORS.invalidToken);
    persistUser(response.user, response.token, rememberMe);
    set(authenticatedState(response.user, response.token));
    runLoginHooks(response.user);
    return response.user;
  },

  async guestLogin() {
    set({ isLoading: true, error: null });
    try {
      const response = await sessionApi.guest();
      persistGuest(response.guestId, response.token);
      set(guestState(response.guestId, response.token));
      return response.user;
    } catch (err) {
      set({ isLoading: false, error: errorMessage(err, SESSION_ERRORS.guest) });
      throw err;
    }
  },

  async register(input) {
    set({ isLoading: true, error: null });
    try {
      const response = await sessionApi.register({
        username: input.username,
        email: input.email,
        password: input.password,
        guestId: storage.getGuestId(),
        turnstileToken: input.turnstileToken,
        referralCode: input.referralCode || undefined,
      });
      if (!response?.token) throw new Error(SESSION_ERRORS.register);
      persistUser(response.user, response.token);
      set(authenticatedState(response.user, response.token));
      runLoginHooks(response.user);
      return response.user;
    } catch (err) {
      set({ isLoading: false, error: errorMessage(err, SESSION_ERRORS.register) });
      throw err;
    }
  },

  async logout() {
    try {
      const response = await sessionApi.logout();
      if (response?.message !== 'Logout successful') {
        console.error('Logout failed', response);
        return false;
      }
    } catch (err) {
      console.error('Logout failed', err);
      return false;
    }
    // The auth header is built from storage on every request, so clearing storage clears it too.
    storage.clearAll();
    set(clearedState());
    return true;
  },

  clearSession() {
    storage.clearSession();
    set(clearedState());
  },

  async refreshToken() {
    const token = storage.getToken();
    if (get().isGuest || storage.getUserType() === 'guest' || readTokenClaims(token)?.isGuest === true) return null;
    try {
      const renewed = await sessionApi.refresh();
      set({ token: renewed, error: null });
      return renewed;
    } catch (err) {
      storage.removeToken();
      set(userResetState(get(), err instanceof Error ? err.message : 'Token refresh failed'));
      throw err;
    }
  },

  async fetchUser() {
    try {
      const { user } = await sessionApi.me();
      set({ user, lastCheck: Date.now(), error: null, ...(isGuestUser(user) ? {} : { credits: user.credits }) });
      return user;
    } catch (err) {
      storage.removeToken();
      storage.removeGuestId();
      set({ userType: 'guest', token: null, guestId: null, user: null, isAuthenticated: false, error: errorMessage(err, SESSION_ERRORS.fetchUser) });
      throw err;
    }
  },

  async fetchCredits() {
    const user = get().user;
    try {
      if (!user || isGuestUser(user)) throw new Error('Only signed-in users have credits');
      const { credits } = await sessionApi.credits(user._id);
      set({ credits });
      return credits;
    } catch (err) {
      set({ error: SESSION_ERRORS.fetchCredits });
      throw err;
    }
  },

  async completeOnboarding(completed = true) {
    try {
      const { user } = await sessionApi.onboarding(completed);
      set({ user, error: null });
      return user;
    } catch (err) {
      set({ error: SESSION_ERRORS.onboarding });
      throw err;
    }
  },
}));

// The client renews or drops the token on its own (before a request, or after a 401): mirror it here.
onTokenChange((token) => {
  if (token) useSessionStore.setState({ token });
  else useSessionStore.setState((state) => userResetState(state, state.error));
});
