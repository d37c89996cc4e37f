import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import type { StepUpFieldsInput } from '../components/step-up-field';
import { useInvalidateTwoFactor } from './two-factor-keys';

/** DELETE /api/auth/2fa/passkeys/{id}, with the second factor in the body. */
export const removePasskey = ({ id, ...stepUp }: { id: string } & StepUpFieldsInput) =>
  api.delete<{ message: string }>(`/api/auth/2fa/passkeys/${encodeURIComponent(id)}`, stepUp);

export function useRemovePasskey() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: removePasskey, onSuccess: invalidate });
}
