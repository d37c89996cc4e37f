import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CryptoOption, CryptosResponse, DepositLimits } from '#shared/schemas/payments';
import { api } from '#web/lib/api-client';
import { PAYMENT_MESSAGES } from './payment-call-error';
import { paymentKeys } from './payment-keys';

/** GET /api/payments/cryptos. Never fails: on failure the list is empty and `error` says so (docs/product.md#errors). */
export async function fetchCryptoOptions(): Promise<{ cryptos: CryptoOption[]; limits: DepositLimits | null; error: string | null }> {
  try {
    const res = await api.get<CryptosResponse>('/api/payments/cryptos');
    return { cryptos: res.cryptos ?? [], limits: res.limits ?? null, error: null };
  } catch {
    return { cryptos: [], limits: null, error: PAYMENT_MESSAGES.cryptos };
  }
}

export const cryptoOptionsQueryOptions = () =>
  queryOptions({ queryKey: paymentKeys.cryptos(), queryFn: () => fetchCryptoOptions(), staleTime: 5 * 60_000 });

export function useCryptoOptions() {
  return useQuery(cryptoOptionsQueryOptions());
}
