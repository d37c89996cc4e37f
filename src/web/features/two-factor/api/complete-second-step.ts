import { useMutation } from '@tanstack/react-query';
import type { AuthResponse } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';
import { passkeyAssertion } from './sign-in-with-passkey';

export type SecondStepAnswer = { code: string } | { recoveryCode: string } | { passkey: unknown };

/** POST /api/login/2fa: the second step of a sign-in (no session yet: no Authorization header). */
export const completeSecondStep = (challenge: string, answer: SecondStepAnswer) =>
  api.post<AuthResponse>('/api/login/2fa', { challenge, ...answer });

/** The second step answered with a code from the authenticator app or a recovery code. */
export function useCompleteSecondStep(challenge: string) {
  return useMutation({ mutationFn: (answer: { code: string } | { recoveryCode: string }) => completeSecondStep(challenge, answer) });
}

/** The second step answered with a passkey: the browser's prompt for the challenge's account, then the answer. */
export function useCompleteSecondStepWithPasskey(challenge: string) {
  return useMutation({
    mutationFn: async () => {
      const passkey = await passkeyAssertion(challenge);
      return completeSecondStep(challenge, { passkey });
    },
  });
}
