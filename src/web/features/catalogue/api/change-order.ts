import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminOrder } from '#shared/schemas/catalogue';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

export type ChangeOrderInput = { id: string; action: 'fulfil' } | ({ id: string; action: 'refund' } & StepUpFieldsInput);

/**
 * POST /api/admin/orders/:id/fulfil or /refund. A refund from REFUND_STEP_UP_CENTS up carries the admin's
 * second factor when two-factor is on (docs/security.md#staff-powers).
 */
export function changeOrder(input: ChangeOrderInput) {
  const path = `/api/admin/orders/${encodeURIComponent(input.id)}/${input.action}`;
  if (input.action === 'fulfil') return api.post<{ order: AdminOrder }>(path);
  const { twoFactorCode, twoFactorAssertion } = input;
  return api.post<{ order: AdminOrder }>(path, twoFactorCode || twoFactorAssertion ? { twoFactorCode, twoFactorAssertion } : undefined);
}

export function useChangeOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeOrder,
    // A refund puts stock back: the catalogue lists change too.
    onSettled: () => client.invalidateQueries({ queryKey: catalogueKeys.all }),
  });
}
