import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchLedgerHistory } from './payments-api';
import { paymentKeys } from './payment-keys';

/** GET /api/credits/history, one page: every change of my balance, newest first. */
export const ledgerHistoryQueryOptions = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: paymentKeys.ledger(page, pageSize),
    queryFn: () => fetchLedgerHistory(page, pageSize),
    placeholderData: keepPreviousData,
  });

export function useLedgerHistory(page: number, pageSize: number) {
  return useQuery(ledgerHistoryQueryOptions(page, pageSize));
}
