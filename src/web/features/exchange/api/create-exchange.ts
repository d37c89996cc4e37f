import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateExchangeBody, CreateExchangeResponse } from '#shared/schemas/exchange';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

/** POST /api/exchange/exchanges: a new swap with its deposit address and reward claim. */
export function createExchange(body: CreateExchangeBody) {
  return api.post<CreateExchangeResponse>('/api/exchange/exchanges', body);
}

/** A new exchange joins the session's recent exchanges. */
export function useCreateExchange() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createExchange, onSuccess: () => client.invalidateQueries({ queryKey: exchangeKeys.mine(null).slice(0, 2) }) });
}
