import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyExchangesResponse } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

/** GET /api/exchange/exchanges: the session's ten latest exchanges. */
export function listMyExchanges(signal?: AbortSignal) {
  return api.get<MyExchangesResponse>('/api/exchange/exchanges?pageSize=10', { signal });
}

/** `owner` (the user's or guest's id) keys the list, so one session never sees another's; null asks nothing. */
export const myExchangesQueryOptions = (owner: string | null) =>
  queryOptions({ queryKey: exchangeKeys.mine(owner), queryFn: ({ signal }) => listMyExchanges(signal), enabled: owner !== null });

export function useMyExchanges(owner: string | null) {
  return useQuery(myExchangesQueryOptions(owner));
}
