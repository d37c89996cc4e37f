import { useMutation } from '@tanstack/react-query';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api } from '#web/lib/api-client';

/**
 * POST /api/two-factor/step-up/passkey-options and the browser's passkey prompt: a passkey answer that
 * confirms one sensitive change of this session (decision 0205), sent as `twoFactorAssertion`.
 */
export async function stepUpPasskeyAssertion() {
  const { options } = await api.post<{ options: PublicKeyCredentialRequestOptionsJSON }>('/api/two-factor/step-up/passkey-options');
  return startAuthentication({ optionsJSON: options });
}

/** The passkey answer a sensitive change sends as `twoFactorAssertion`. */
export type StepUpAssertion = Awaited<ReturnType<typeof stepUpPasskeyAssertion>>;

/** "Use a passkey" inside a sensitive change's form: the passkey answer it then sends. */
export function useStepUpPasskey() {
  return useMutation({ mutationFn: stepUpPasskeyAssertion });
}
