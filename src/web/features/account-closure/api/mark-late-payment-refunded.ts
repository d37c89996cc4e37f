import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LatePaymentRefund } from '#shared/schemas/account-closure';
import { api } from '#web/lib/api-client';
import { pendingClosuresQueryKey } from './get-pending-closures';

/** POST /api/admin/account-closures/late-payments/:id/refunded: an admin records the money as sent back (audit-logged). */
export function useMarkLatePaymentRefunded() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note: string }) =>
      api.post<LatePaymentRefund>(`/api/admin/account-closures/late-payments/${encodeURIComponent(id)}/refunded`, { note }),
    onSettled: () => client.invalidateQueries({ queryKey: pendingClosuresQueryKey }),
  });
}
