import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MyPaymentsResponse } from '#shared/schemas/payments';
import { api } from '#web/lib/api-client';
import { PAYMENT_MESSAGES } from './payment-call-error';
import { paymentKeys } from './payment-keys';

/** GET /api/payments/mine, one page. Never fails: on failure the list is empty and `error` says so (docs/product.md#errors). */
export async function fetchMyPayments(
  query: { page?: number; pageSize?: number; status?: string } = {},
): Promise<MyPaymentsResponse & { error: string | null }> {
  const params = new URLSearchParams();
  if (query.page) params.set('page', String(query.page));
  if (query.pageSize) params.set('pageSize', String(query.pageSize));
  if (query.status) params.set('status', query.status);
  const qs = params.toString();
  try {
    const res = await api.get<MyPaymentsResponse>(`/api/payments/mine${qs ? `?${qs}` : ''}`);
    return { ...res, error: null };
  } catch {
    return { payments: [], page: query.page ?? 1, pageSize: query.pageSize ?? 20, total: 0, error: PAYMENT_MESSAGES.mine };
  }
}

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
