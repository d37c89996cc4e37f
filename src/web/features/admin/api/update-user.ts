import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '#shared/constants';
import type { AdminUser } from '#shared/schemas/admin';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

/** A role change carries the admin's second factor when two-factor is on (docs/security.md#staff-powers). */
export type UserChange =
  ({ kind: 'role'; role: Role; subroles: string[] } & StepUpFieldsInput) | { kind: 'disabled'; disabled: boolean; reason: string };

/** PUT /api/admin/users/{id}/role or /disabled (admins): the account's role, or whether it may sign in. */
export function updateUser(id: string, change: UserChange): Promise<{ user: AdminUser }> {
  const path = `/api/admin/users/${encodeURIComponent(id)}`;
  if (change.kind === 'disabled')
    return api.put<{ user: AdminUser }>(`${path}/disabled`, { disabled: change.disabled, reason: change.reason });
  const { role, subroles, twoFactorCode, twoFactorAssertion } = change;
  return api.put<{ user: AdminUser }>(`${path}/role`, { role, subroles, twoFactorCode, twoFactorAssertion });
}

export function useUpdateUser(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: UserChange) => updateUser(id, change),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
