import { queryOptions, useQuery } from '@tanstack/react-query';
import { getPayment } from './payments-api';
import { paymentKeys } from './payment-keys';

/** GET /api/payments/{id}: one of my payments and my balance. A 404 (not mine, or no such payment) is not retried. */
export const paymentQueryOptions = (id: string) => queryOptions({ queryKey: paymentKeys.detail(id), queryFn: () => getPayment(id) });

export function usePayment(id: string) {
  return useQuery(paymentQueryOptions(id));
}
