import { useMutation } from '@tanstack/react-query';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';

/** PUT /api/users/email: a confirmation link goes to the new address; the address changes when it is opened. */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (input: { email: string; currentPassword: string } & StepUpFieldsInput) =>
      api.put<{ success: true; message: string; pendingEmail: string }>('/api/users/email', input),
  });
}
