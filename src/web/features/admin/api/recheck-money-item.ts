import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';
import { toMoneyItem, type ItemResponse, type MoneyItem } from './get-money-item';
import type { MoneyKind } from './get-money-list';

/** POST /api/admin/{payments|exchanges}/{id}/recheck: ask the provider now; answers the item as it now is. */
export async function recheckMoneyItem(kind: MoneyKind, id: string): Promise<MoneyItem> {
  return toMoneyItem(await api.post<ItemResponse>(`/api/admin/${kind}/${encodeURIComponent(id)}/recheck`));
}

/** The answer replaces the opened item, and the list (statuses) may have changed. */
export function useRecheckMoneyItem(kind: MoneyKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => recheckMoneyItem(kind, id),
    onSuccess: (item, id) => {
      client.setQueryData(adminKeys.moneyItem(kind, id), item);
      return client.invalidateQueries({ queryKey: [...adminKeys.money(kind), 'list'] });
    },
  });
}
