import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EstimateResponse } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

export interface EstimateQuery {
  from: string;
  to: string;
  amount: number;
}

/** GET /api/exchange/estimate: the live rate, the amount received and the reward for one swap. */
export function getExchangeEstimate(query: EstimateQuery, signal?: AbortSignal) {
  const params = new URLSearchParams({ from: query.from, to: query.to, amount: String(query.amount) });
  return api.get<EstimateResponse>(`/api/exchange/estimate?${params}`, { signal });
}

/**
 * A rate is live: a failed one is shown at once (the next keystroke asks again) rather than retried,
 * and a pair asked about again after a while is asked afresh.
 */
export const exchangeEstimateQueryOptions = (query: EstimateQuery) =>
  queryOptions({
    queryKey: exchangeKeys.estimate(query.from, query.to, query.amount),
    queryFn: ({ signal }) => getExchangeEstimate(query, signal),
    retry: false,
    staleTime: 15_000,
  });

/** `query` null: nothing to estimate (no amount, or the same currency twice). */
export function useExchangeEstimate(query: EstimateQuery | null) {
  return useQuery({ ...exchangeEstimateQueryOptions(query ?? { from: '', to: '', amount: 0 }), enabled: query !== null });
}
