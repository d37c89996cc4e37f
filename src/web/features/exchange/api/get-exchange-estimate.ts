import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EstimateResponse, RateType } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

export interface EstimateQuery {
  from: string;
  to: string;
  amount: number;
  rateType: RateType;
}

/** GET /api/exchange/estimate: the rate (floating, or a fixed quote with its expiry), the amount received and the reward. */
export function getExchangeEstimate(query: EstimateQuery, signal?: AbortSignal) {
  const params = new URLSearchParams({ from: query.from, to: query.to, amount: String(query.amount), rateType: query.rateType });
  return api.get<EstimateResponse>(`/api/exchange/estimate?${params}`, { signal });
}

/** Milliseconds until a fixed quote expires (0 once it has), or null for a floating estimate. */
export function quoteTimeLeft(estimate: EstimateResponse | undefined, now = Date.now()): number | null {
  if (!estimate?.validUntil) return null;
  return Math.max(0, Date.parse(estimate.validUntil) - now);
}

/**
 * A rate is live: a failed one is shown at once (the next keystroke asks again) rather than retried,
 * and a pair asked about again after a while is asked afresh. A fixed quote renews itself when it
 * expires, so the one on screen can always be accepted.
 */
export const exchangeEstimateQueryOptions = (query: EstimateQuery) =>
  queryOptions({
    queryKey: exchangeKeys.estimate(query.from, query.to, query.amount, query.rateType),
    queryFn: ({ signal }) => getExchangeEstimate(query, signal),
    retry: false,
    staleTime: 15_000,
    refetchInterval: (q) => {
      const left = quoteTimeLeft(q.state.data);
      return left === null ? false : Math.max(left, 1000);
    },
  });

/** `query` null: nothing to estimate (no amount, or the same currency twice). */
export function useExchangeEstimate(query: EstimateQuery | null) {
  return useQuery({
    ...exchangeEstimateQueryOptions(query ?? { from: '', to: '', amount: 0, rateType: 'floating' }),
    enabled: query !== null,
  });
}
