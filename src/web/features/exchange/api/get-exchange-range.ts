import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExchangeRangeResponse, RateType } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

export interface RangeQuery {
  from: string;
  to: string;
  rateType: RateType;
}

/** GET /api/exchange/range: the pair's minimum and maximum at the provider, before any amount is typed. */
export function getExchangeRange(query: RangeQuery, signal?: AbortSignal) {
  const params = new URLSearchParams({ from: query.from, to: query.to, rateType: query.rateType });
  return api.get<ExchangeRangeResponse>(`/api/exchange/range?${params}`, { signal });
}

/** Limits change rarely: kept for a minute. */
export const exchangeRangeQueryOptions = (query: RangeQuery) =>
  queryOptions({
    queryKey: exchangeKeys.range(query.from, query.to, query.rateType),
    queryFn: ({ signal }) => getExchangeRange(query, signal),
    retry: false,
    staleTime: 60_000,
  });

/** `query` null: no pair to ask about (the same currency twice). */
export function useExchangeRange(query: RangeQuery | null) {
  return useQuery({ ...exchangeRangeQueryOptions(query ?? { from: '', to: '', rateType: 'floating' }), enabled: query !== null });
}
