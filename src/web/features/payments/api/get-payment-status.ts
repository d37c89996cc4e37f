import { queryOptions, useQuery } from '@tanstack/react-query';
import { PAYMENT_STATUS_POLL_MS } from '#shared/constants';
import { getPaymentStatus } from './payments-api';
import { paymentKeys } from './payment-keys';

/**
 * GET /api/payments/{id}/status: now, then every 15 seconds (spec section 4), also while the tab is in
 * the background (the user was told not to close the page, not to keep looking at it). A failed check
 * is shown at once and tried again at the next tick, not retried in between.
 */
export const paymentStatusQueryOptions = (id: string) =>
  queryOptions({
    queryKey: paymentKeys.status(id),
    queryFn: () => getPaymentStatus(id),
    refetchInterval: PAYMENT_STATUS_POLL_MS,
    refetchIntervalInBackground: true,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

export function usePaymentStatus(id: string) {
  return useQuery(paymentStatusQueryOptions(id));
}
