import { queryOptions, useQuery } from '@tanstack/react-query';
import { PAYMENT_STATUS_POLL_MS } from '#shared/constants';
import type { PaymentStatusResponse } from '#shared/schemas/payments';
import { api } from '#web/lib/api-client';
import { PAYMENT_MESSAGES, paymentCallError } from './payment-call-error';
import { paymentKeys } from './payment-keys';

/** GET /api/payments/{id}/status: the payment's status at the provider, or Failed to check payment status. */
export async function getPaymentStatus(id: string): Promise<PaymentStatusResponse['paymentData']> {
  try {
    const res = await api.get<PaymentStatusResponse>(`/api/payments/${encodeURIComponent(id)}/status`);
    if (!res?.success) throw new Error('unsuccessful');
    return res.paymentData;
  } catch (err) {
    throw paymentCallError(PAYMENT_MESSAGES.status, err);
  }
}

/**
 * Now, then every 15 seconds (docs/product.md#payment-status), also while the tab is in the background (the user was
 * told not to close the page, not to keep looking at it). A failed check is shown at once and tried
 * again at the next tick, not retried in between.
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
