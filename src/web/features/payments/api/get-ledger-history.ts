import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { LedgerHistoryResponse } from '#shared/schemas/credits';
import { api } from '#web/lib/api-client';
import { paymentKeys } from './payment-keys';

/** GET /api/credits/history, one page: every change of my balance, newest first. */
export function fetchLedgerHistory(page: number, pageSize: number): Promise<LedgerHistoryResponse> {
  return api.get<LedgerHistoryResponse>(`/api/credits/history?page=${page}&pageSize=${pageSize}`);
}

export const ledgerHistoryQueryOptions = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: paymentKeys.ledger(page, pageSize),
    queryFn: () => fetchLedgerHistory(page, pageSize),
    placeholderData: keepPreviousData,
  });

export function useLedgerHistory(page: number, pageSize: number) {
  return useQuery(ledgerHistoryQueryOptions(page, pageSize));
}
