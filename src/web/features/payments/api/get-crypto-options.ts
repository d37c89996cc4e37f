import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCryptoOptions } from './payments-api';
import { paymentKeys } from './payment-keys';

/** GET /api/payments/cryptos. Never fails: on failure the list is empty and `error` says so (spec section 8). */
export const cryptoOptionsQueryOptions = () =>
  queryOptions({ queryKey: paymentKeys.cryptos(), queryFn: () => fetchCryptoOptions(), staleTime: 5 * 60_000 });

export function useCryptoOptions() {
  return useQuery(cryptoOptionsQueryOptions());
}
