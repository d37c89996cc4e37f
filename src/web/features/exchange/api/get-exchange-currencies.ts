import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExchangeCurrenciesResponse } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

/** GET /api/exchange/currencies: what can be swapped. */
export function getExchangeCurrencies(signal?: AbortSignal) {
  return api.get<ExchangeCurrenciesResponse>('/api/exchange/currencies', { signal });
}

export const exchangeCurrenciesQueryOptions = () =>
  queryOptions({ queryKey: exchangeKeys.currencies(), queryFn: ({ signal }) => getExchangeCurrencies(signal), staleTime: 5 * 60_000 });

export function useExchangeCurrencies() {
  return useQuery(exchangeCurrenciesQueryOptions());
}
