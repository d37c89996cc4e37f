import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { sessionsQueryKey } from './get-sessions';

/** docs/product.md#api. The server ends every other session of the account on success (docs/product.md#accounts). */
export async function changePassword(input: { currentPassword: string; newPassword: string } & StepUpFieldsInput): Promise<void> {
  await api.post('/api/users/change-password', input);
}

/** The other sessions end with it, so the session list is asked again. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({ mutationFn: changePassword, onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryKey }) });
}
