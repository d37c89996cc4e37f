import { useMutation } from '@tanstack/react-query';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { AuthResponse } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';

/**
 * POST /api/login/passkey/options and the browser's passkey prompt for a sign-in: discoverable, or for
 * the account of a second-step challenge. (No session yet: no Authorization header.)
 */
export async function passkeyAssertion(challenge?: string) {
  const { options } = await api.post<{ options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/login/passkey/options',
    challenge ? { challenge } : {},
  );
  return startAuthentication({ optionsJSON: options });
}

/** POST /api/login/passkey: signs in with a discoverable passkey. */
export async function signInWithPasskey(rememberMe: boolean): Promise<AuthResponse> {
  const response = await passkeyAssertion();
  return api.post<AuthResponse>('/api/login/passkey', { response, guestId: storage.getGuestId(), rememberMe });
}

/** "Sign in with a passkey": the prompt and the sign-in as one mutation; its answer is what login answers. */
export function usePasskeySignIn() {
  return useMutation({ mutationFn: signInWithPasskey });
}
