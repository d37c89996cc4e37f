import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { pendingClosuresQueryKey } from './get-pending-closures';

/**
 * POST /api/admin/account-closures/:id/erase: an admin erases a closing account now (the username typed
 * again, and the admin's second factor when two-factor is on).
 */
export function useEraseAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; confirmUsername: string } & StepUpFieldsInput) =>
      api.post<{ _id: string; username: string; erasedAt: string }>(`/api/admin/account-closures/${encodeURIComponent(id)}/erase`, body),
    onSettled: () => client.invalidateQueries({ queryKey: pendingClosuresQueryKey }),
  });
}
