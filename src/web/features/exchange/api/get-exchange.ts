import { t } from '@lingui/core/macro';
// The messages below need the active language, which the language module sets up on import (decision 0326).
import '#web/features/language';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { FINAL_EXCHANGE_STATUSES } from '#shared/exchange-statuses';
import type { Exchange, ExchangeResponse } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

/**
 * How often an open exchange is asked about. Faster than the payment page's 15 s: a swap moves through
 * several steps and someone is usually watching; the server asks the provider at most every 10 s.
 */
export const EXCHANGE_POLL_MS = 5000;

/** GET /api/exchange/exchanges/{id}: one exchange of the session, as the provider last reported it. */
export function getExchange(id: string, signal?: AbortSignal) {
  return api.get<ExchangeResponse>(`/api/exchange/exchanges/${encodeURIComponent(id)}`, { signal });
}

const finished = (exchange: Exchange | undefined) => exchange !== undefined && FINAL_EXCHANGE_STATUSES.includes(exchange.status);

/**
 * Follows an exchange live, starting from what the caller already has: asks every EXCHANGE_POLL_MS while
 * it is unfinished and the tab is visible, and at once when the visitor returns. A failed poll is shown
 * and the next one retries.
 */
export const exchangeStatusQueryOptions = (initial: Exchange) =>
  queryOptions({
    queryKey: exchangeKeys.detail(initial._id),
    queryFn: ({ signal }) => getExchange(initial._id, signal),
    initialData: { exchange: initial } as ExchangeResponse,
    initialDataUpdatedAt: () => Date.now(),
    staleTime: EXCHANGE_POLL_MS,
    retry: false,
    refetchInterval: (query) => (finished(query.state.data?.exchange) ? false : EXCHANGE_POLL_MS),
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: (query) => (finished(query.state.data?.exchange) ? false : 'always'),
  });

export function useExchangeStatus(initial: Exchange): { exchange: Exchange; error: string | null; refresh: () => void } {
  const query = useQuery(exchangeStatusQueryOptions(initial));
  return {
    exchange: query.data.exchange,
    error: query.isError ? t`Could not update the status. Retrying…` : null,
    refresh: () => void query.refetch(),
  };
}

/**
 * The exchange a link names (`?exchange=<id>` from a notification), asked for once; `null` asks nothing.
 * An id that is not the session's answers 404, and the panel then simply shows its form.
 */
export function useLinkedExchange(id: string | null) {
  return useQuery({
    queryKey: [...exchangeKeys.detail(id ?? ''), 'linked'] as const,
    queryFn: ({ signal }) => getExchange(id!, signal),
    enabled: id !== null && id !== '',
    retry: false,
    staleTime: Infinity,
  });
}

/** One exchange at its own address (/dashboard/exchanges/<id>): read once; the tracker then follows it. */
export function useExchange(id: string) {
  return useQuery({
    queryKey: [...exchangeKeys.detail(id), 'page'] as const,
    queryFn: ({ signal }) => getExchange(id, signal),
    retry: false,
  });
}
