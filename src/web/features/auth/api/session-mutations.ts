import { useMutation } from '@tanstack/react-query';
import { useSessionStore, type LoginInput, type RegisterInput } from '../stores/session-store';

/*
 * The session's writes as mutations, so screens read isPending and error instead of keeping busy flags
 * (docs/decisions/0225). Each runs the store's sequence (the call, then the session it leaves), and the
 * store keeps only the session itself.
 */

export function useLogin() {
  return useMutation({ mutationFn: (input: LoginInput) => useSessionStore.getState().login(input) });
}

export function useRegister() {
  return useMutation({ mutationFn: (input: RegisterInput) => useSessionStore.getState().register(input) });
}

export function useGuestLogin() {
  return useMutation({ mutationFn: () => useSessionStore.getState().guestLogin() });
}

/** Resolves true when the server ended the session (a failure is only logged and leaves it as it was). */
export function useLogout() {
  return useMutation({ mutationFn: () => useSessionStore.getState().logout() });
}

export function useCompleteOnboarding() {
  return useMutation({ mutationFn: (completed: boolean) => useSessionStore.getState().completeOnboarding(completed) });
}
