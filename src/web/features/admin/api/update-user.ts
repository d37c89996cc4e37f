import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '#shared/constants';
import type { AdminUser } from '#shared/schemas/admin';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

export type UserChange = { kind: 'role'; role: Role; subroles: string[] } | { kind: 'disabled'; disabled: boolean; reason: string };

/** PUT /api/admin/users/{id}/role or /disabled (admins): the account's role, or whether it may sign in. */
export function updateUser(id: string, change: UserChange): Promise<{ user: AdminUser }> {
  const path = `/api/admin/users/${encodeURIComponent(id)}`;
  return change.kind === 'role'
    ? api.put<{ user: AdminUser }>(`${path}/role`, { role: change.role, subroles: change.subroles })
    : api.put<{ user: AdminUser }>(`${path}/disabled`, { disabled: change.disabled, reason: change.reason });
}

export function useUpdateUser(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: UserChange) => updateUser(id, change),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
