import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { useInvalidateTwoFactor } from './two-factor-keys';

/** DELETE /api/auth/2fa/passkeys/{id}. */
export const removePasskey = (id: string) => api.delete<{ message: string }>(`/api/auth/2fa/passkeys/${encodeURIComponent(id)}`);

export function useRemovePasskey() {
  const invalidate = useInvalidateTwoFactor();
  return useMutation({ mutationFn: removePasskey, onSuccess: invalidate });
}
