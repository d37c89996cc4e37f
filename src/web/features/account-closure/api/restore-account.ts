import { useMutation } from '@tanstack/react-query';
import type { RestoreAccountBody, RestoreAccountResponse } from '#shared/schemas/account-closure';
import { api } from '#web/lib/api-client';

/**
 * POST /api/auth/restore-account: undoes the closure and signs in (the caller stores the session); the
 * answer says what came back and what to do again (decision 0304).
 */
export function restoreAccount(
  input: Partial<RestoreAccountBody> & { username: string; password: string },
): Promise<RestoreAccountResponse> {
  return api.post<RestoreAccountResponse>('/api/auth/restore-account', input);
}

export function useRestoreAccount() {
  return useMutation({ mutationFn: restoreAccount });
}
