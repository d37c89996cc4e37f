import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AuthResponse, User } from '#shared/schemas/auth';
import { storage } from '#web/lib/storage';
import { runLoginHooks, SESSION_ERRORS, useSessionStore, type LoginInput, type RegisterInput } from '../stores/session-store';
import { rememberSessionUser, sessionUserQueryOptions } from './get-session-user';
import { sessionApi } from './session';
import { attempt, startGuestSession } from './session-calls';

/*
 * The session's writes as mutations, so screens read isPending and error instead of keeping busy flags
 * (docs/decisions/0225). Each makes its call, moves the session store to the state it leaves, and puts
 * the user it got into the query cache (docs/decisions/0245).
 */

/** A finished sign-in: the session, the user and balance in the cache, then the sign-in hooks. */
function finishSignIn(client: QueryClient, response: AuthResponse, rememberMe?: boolean): User {
  const user = useSessionStore.getState().completeSignIn(response, rememberMe);
  rememberSessionUser(client, user);
  runLoginHooks(user);
  return user;
}

/** Stores a sign-in that finished elsewhere (the second step, or a passkey) exactly as login does. */
export function useFinishSignIn() {
  const client = useQueryClient();
  return (response: AuthResponse, rememberMe: boolean) => finishSignIn(client, response, rememberMe);
}

/** Resolves with the user, or with a challenge when the account has two-factor on (no session yet). */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) =>
      attempt(SESSION_ERRORS.login, async () => {
        const response = await sessionApi.login({
          username: input.username,
          password: input.password,
          guestId: storage.getGuestId(),
          turnstileToken: input.turnstileToken,
          rememberMe: input.rememberMe,
        });
        if (response && 'twoFactorRequired' in response && response.twoFactorRequired) {
          useSessionStore.getState().idle();
          return response;
        }
        return finishSignIn(client, response as AuthResponse, input.rememberMe);
      }),
  });
}

export function useRegister() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RegisterInput) =>
      attempt(SESSION_ERRORS.register, async () => {
        const response = await sessionApi.register({
          username: input.username,
          email: input.email,
          password: input.password,
          guestId: storage.getGuestId(),
          turnstileToken: input.turnstileToken,
          referralCode: input.referralCode || undefined,
        });
        if (!response?.token) throw new Error(SESSION_ERRORS.register);
        return finishSignIn(client, response);
      }),
  });
}

export function useGuestLogin() {
  return useMutation({ mutationFn: startGuestSession });
}

/**
 * Resolves true when the server ended the session; a failure is only logged and leaves it as it was
 * (docs/product.md#errors). On success the session, local storage and every cached answer go.
 */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
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
      useSessionStore.getState().signedOut();
      // Nothing of this user stays for the next one on this browser.
      client.removeQueries();
      return true;
    },
  });
}

/** PUT /api/onboarding: the answer is the user, so it replaces the cached one. */
export function useCompleteOnboarding() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (completed: boolean) => (await sessionApi.onboarding(completed)).user,
    onSuccess: (user) => client.setQueryData(sessionUserQueryOptions.queryKey, user),
  });
}
