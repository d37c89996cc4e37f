import { useMutation } from '@tanstack/react-query';
import type { RestoreAccountBody } from '#shared/schemas/account-closure';
import type { AuthResponse } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';

/** POST /api/auth/restore-account: undoes the closure and signs in (the caller stores the session). */
export function restoreAccount(input: Partial<RestoreAccountBody> & { username: string; password: string }): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/restore-account', input);
}

export function useRestoreAccount() {
  return useMutation({ mutationFn: restoreAccount });
}
