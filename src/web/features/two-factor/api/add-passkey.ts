import { useMutation } from '@tanstack/react-query';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { Passkey } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import type { StepUpFieldsInput } from '../components/step-up-field';
import { useInvalidateTwoFactor } from './two-factor-keys';

export interface AddPasskeyInput extends StepUpFieldsInput {
  name: string;
  currentPassword: string;
}

/**
 * POST /api/auth/2fa/passkeys/options with the password (and the second factor when two-factor is on),
 * the browser's prompt, then POST /api/auth/2fa/passkeys: a new passkey under `name`.
 */
export async function addPasskey({ name, ...proof }: AddPasskeyInput) {
  const { options } = await api.post<{ options: PublicKeyCredentialCreationOptionsJSON }>('/api/auth/2fa/passkeys/options', proof);
  const response = await startRegistration({ optionsJSON: options });
  return api.post<{ passkey: Passkey }>('/api/auth/2fa/passkeys', { name, response });
}

export function useAddPasskey() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: addPasskey, onSuccess: invalidate });
}
