import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchMyPayments } from './payments-api';
import { paymentKeys } from './payment-keys';

/** GET /api/payments/mine, one page. Never fails: on failure the list is empty and `error` says so. */
export const myPaymentsQueryOptions = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: paymentKeys.mine(page, pageSize),
    queryFn: () => fetchMyPayments({ page, pageSize }),
    // The page being left stays on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export function useMyPayments(page: number, pageSize: number) {
  return useQuery(myPaymentsQueryOptions(page, pageSize));
}
