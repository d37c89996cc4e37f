import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminOrder } from '#shared/schemas/catalogue';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

export interface ChangeOrderInput {
  id: string;
  action: 'fulfil' | 'refund';
}

/** POST /api/admin/orders/:id/fulfil or /refund. */
export const changeOrder = ({ id, action }: ChangeOrderInput) => api.post<{ order: AdminOrder }>(`/api/admin/orders/${encodeURIComponent(id)}/${action}`);

export function useChangeOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeOrder,
    // A refund puts stock back: the catalogue lists change too.
    onSettled: () => client.invalidateQueries({ queryKey: catalogueKeys.all }),
  });
}
