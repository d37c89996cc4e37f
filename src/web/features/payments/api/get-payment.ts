import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentDetailResponse } from '#shared/schemas/payments';
import { api } from '#web/lib/api-client';
import { paymentKeys } from './payment-keys';

/** GET /api/payments/{id}: one of my payments and my balance. A 404 (not mine, or no such payment) is not retried. */
export function getPayment(id: string): Promise<PaymentDetailResponse> {
  return api.get<PaymentDetailResponse>(`/api/payments/${encodeURIComponent(id)}`);
}

export const paymentQueryOptions = (id: string) => queryOptions({ queryKey: paymentKeys.detail(id), queryFn: () => getPayment(id) });

export function usePayment(id: string) {
  return useQuery(paymentQueryOptions(id));
}
