import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { pendingClosuresQueryKey } from './get-pending-closures';

/** POST /api/admin/account-closures/:id/erase: an admin erases a closing account now (the username typed again). */
export function useEraseAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmUsername }: { id: string; confirmUsername: string }) =>
      api.post<{ _id: string; username: string; erasedAt: string }>(`/api/admin/account-closures/${encodeURIComponent(id)}/erase`, { confirmUsername }),
    onSettled: () => client.invalidateQueries({ queryKey: pendingClosuresQueryKey }),
  });
}
