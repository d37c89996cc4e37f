import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, type PurchaseResponse } from '#shared/schemas/catalogue';
import { useSessionStore } from '#web/features/auth';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

export interface BuyItemInput {
  itemId: string;
  /** One per purchase the person means: a double click, a retry or a second tab with it buys once. */
  idempotencyKey: string;
}

/** POST /api/orders with the `Idempotency-Key` header. */
export const buyItem = ({ itemId, idempotencyKey }: BuyItemInput) =>
  api.post<PurchaseResponse>('/api/orders', { itemId }, { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });

/** Buys, then shows the new balance at once and reloads what the purchase changed (orders, stock, history). */
export function useBuyItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: buyItem,
    onSuccess: (result) => {
      // The session keeps the balance in credits (spec section 3), the API answers cents.
      useSessionStore.setState({ credits: result.balanceCents / 100 });
    },
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: catalogueKeys.all }),
        client.invalidateQueries({ queryKey: ['credits'] }),
      ]);
    },
  });
}
