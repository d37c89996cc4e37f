import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, type CreateOrderBody, type PurchaseResponse } from '#shared/schemas/catalogue';
import { useSessionStore } from '#web/features/auth';
import { sessionKeys } from '#web/features/auth/credits';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

export interface BuyItemInput {
  itemId: string;
  /** The price the person saw and confirmed: the server never charges another (decision 0210). */
  expectedPriceCents: number;
  /** One per purchase the person means: a double click, a retry or a second tab with it buys once. */
  idempotencyKey: string;
}

/** POST /api/orders with the `Idempotency-Key` header and the confirmed price. */
export const buyItem = ({ itemId, expectedPriceCents, idempotencyKey }: BuyItemInput) =>
  api.post<PurchaseResponse>('/api/orders', { itemId, expectedPriceCents } satisfies CreateOrderBody, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/** Buys, then shows the new balance at once and reloads what the purchase changed (orders, stock, history). */
export function useBuyItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: buyItem,
    onSuccess: (result) => {
      // The balance is kept in credits (docs/product.md#browser-state), the API answers cents.
      client.setQueryData(sessionKeys.credits(useSessionStore.getState().userId), result.balanceCents / 100);
    },
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: catalogueKeys.all }),
        client.invalidateQueries({ queryKey: sessionKeys.allCredits }),
      ]);
    },
  });
}
