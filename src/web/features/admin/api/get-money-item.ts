import { queryOptions } from '@tanstack/react-query';
import type { PaymentEvent } from '#shared/schemas/admin';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';
import type { MoneyKind, MoneyRow } from './get-money-list';

export type { PaymentEvent };
export interface MoneyItem {
  row: MoneyRow;
  events: PaymentEvent[];
}
export type ItemResponse = { payment?: MoneyRow; exchange?: MoneyRow; events?: PaymentEvent[] };

export const toMoneyItem = (res: ItemResponse): MoneyItem => ({ row: (res.payment ?? res.exchange)!, events: res.events ?? [] });

/** GET /api/admin/{payments|exchanges}/{id}: one payment or exchange with the provider's data and history. */
export async function getMoneyItem(kind: MoneyKind, id: string, signal?: AbortSignal): Promise<MoneyItem> {
  return toMoneyItem(await api.get<ItemResponse>(`/api/admin/${kind}/${encodeURIComponent(id)}`, { signal }));
}

/** Opened from a click: the panel fetches it with `queryClient.fetchQuery` and shows it once it is there. */
export const moneyItemQueryOptions = (kind: MoneyKind, id: string) =>
  queryOptions({ queryKey: adminKeys.moneyItem(kind, id), queryFn: ({ signal }) => getMoneyItem(kind, id, signal), retry: false });
