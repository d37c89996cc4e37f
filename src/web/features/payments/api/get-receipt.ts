import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Receipt } from '#shared/schemas/credits';
import { api } from '#web/lib/api-client';
import { paymentKeys } from './payment-keys';

/** GET /api/credits/ledger/:id/receipt: the receipt of one of my ledger entries (404 for anyone else's). */
export const fetchReceipt = async (entryId: string) =>
  (await api.get<{ receipt: Receipt }>(`/api/credits/ledger/${encodeURIComponent(entryId)}/receipt`)).receipt;

export const receiptQueryOptions = (entryId: string) =>
  queryOptions({ queryKey: paymentKeys.receipt(entryId), queryFn: () => fetchReceipt(entryId), retry: false });

export function useReceipt(entryId: string) {
  return useQuery(receiptQueryOptions(entryId));
}
