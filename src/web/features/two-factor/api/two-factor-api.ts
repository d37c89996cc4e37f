import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { AuthResponse } from '#shared/schemas/auth';
import type {
  Passkey,
  PasskeyListResponse,
  RecoveryCodesResponse,
  TotpSetupResponse,
  TwoFactorStatus,
} from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';

/** Two-factor calls (issue 16). Queries: status and passkeys; mutations invalidate both. */
export const twoFactorKeys = {
  status: ['two-factor', 'status'] as const,
  passkeys: ['two-factor', 'passkeys'] as const,
};

export const getTwoFactorStatus = () => api.get<{ twoFactor: TwoFactorStatus }>('/api/auth/2fa').then((r) => r.twoFactor);

export const getPasskeys = () => api.get<PasskeyListResponse>('/api/auth/2fa/passkeys');

export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorKeys.status, queryFn: getTwoFactorStatus });
}

export function usePasskeys(enabled = true) {
  return useQuery({ queryKey: twoFactorKeys.passkeys, queryFn: getPasskeys, enabled });
}

function useInvalidateTwoFactor() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['two-factor'] });
}

export function useTotpSetup() {
  return useMutation({
    mutationFn: (currentPassword: string) => api.post<TotpSetupResponse>('/api/auth/2fa/totp/setup', { currentPassword }),
  });
}

export function useTotpEnable() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({
    mutationFn: (code: string) => api.post<RecoveryCodesResponse>('/api/auth/2fa/totp/enable', { code }),
    onSuccess: invalidate,
  });
}

export function useRegenerateRecoveryCodes() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({
    mutationFn: (currentPassword: string) => api.post<RecoveryCodesResponse>('/api/auth/2fa/recovery-codes', { currentPassword }),
    onSuccess: invalidate,
  });
}

export function useDisableTwoFactor() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({
    mutationFn: (input: { currentPassword: string; code: string }) => api.post<{ twoFactor: TwoFactorStatus }>('/api/auth/2fa/disable', input),
    onSuccess: invalidate,
  });
}

/** Asks the browser for a new passkey, then stores it under `name`. */
export function useAddPasskey() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({
    mutationFn: async (name: string) => {
      const { options } = await api.post<{ options: PublicKeyCredentialCreationOptionsJSON }>('/api/auth/2fa/passkeys/options');
      const response = await startRegistration({ optionsJSON: options });
      return api.post<{ passkey: Passkey }>('/api/auth/2fa/passkeys', { name, response });
    },
    onSuccess: invalidate,
  });
}

export function useRemovePasskey() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/api/auth/2fa/passkeys/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  });
}

// ---- Sign-in (no session yet: these paths carry no Authorization header) ------------------------------

export type SecondStepAnswer = { code: string } | { recoveryCode: string } | { passkey: unknown };

export const completeSecondStep = (challenge: string, answer: SecondStepAnswer) =>
  api.post<AuthResponse>('/api/login/2fa', { challenge, ...answer });

/** The browser's passkey prompt for a sign-in: discoverable, or for the account of a second-step challenge. */
export async function passkeyAssertion(challenge?: string) {
  const { options } = await api.post<{ options: PublicKeyCredentialRequestOptionsJSON }>('/api/login/passkey/options', challenge ? { challenge } : {});
  return startAuthentication({ optionsJSON: options });
}

export async function signInWithPasskey(rememberMe: boolean): Promise<AuthResponse> {
  const response = await passkeyAssertion();
  return api.post<AuthResponse>('/api/login/passkey', { response, guestId: storage.getGuestId(), rememberMe });
}
