import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LatePaymentRefund, PendingClosure } from '#shared/schemas/account-closure';
import { api } from '#web/lib/api-client';

export const pendingClosuresQueryKey = ['admin', 'account-closures'] as const;

export interface PendingClosures {
  closures: PendingClosure[];
  /** Payments that finished after their account's erasure, waiting for a refund (decision 0305). */
  latePayments: LatePaymentRefund[];
}

/** GET /api/admin/account-closures: accounts closing and not yet erased (the soonest erasure first), and late payments. */
export async function getPendingClosures(signal?: AbortSignal): Promise<PendingClosures> {
  const answer = await api.get<Partial<PendingClosures>>('/api/admin/account-closures', { signal });
  return { closures: answer.closures ?? [], latePayments: answer.latePayments ?? [] };
}

export const pendingClosuresQueryOptions = () =>
  queryOptions({ queryKey: pendingClosuresQueryKey, queryFn: ({ signal }) => getPendingClosures(signal) });

export function usePendingClosures() {
  return useQuery(pendingClosuresQueryOptions());
}
