import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateExchangeBody, CreateExchangeResponse } from '#shared/schemas/exchange';
import { startGuestSession, useSessionStore } from '#web/features/auth';
import { api } from '#web/lib/api-client';
import { exchangeKeys } from './exchange-keys';

/** POST /api/exchange/exchanges: a new swap with its deposit address and reward claim. */
export function createExchange(body: CreateExchangeBody) {
  return api.post<CreateExchangeResponse>('/api/exchange/exchanges', body);
}

/**
 * Exchanges and their rewards belong to a session: a visitor without one becomes a guest first (a guest
 * start), then the exchange is created. One mutation, so the form's busy state
 * covers both calls. A new exchange joins the session's recent exchanges.
 */
export function useCreateExchange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateExchangeBody) => {
      const session = useSessionStore.getState();
      if (!session.isAuthenticated && !session.isGuest) await startGuestSession();
      return createExchange(body);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: exchangeKeys.mine(null).slice(0, 2) }),
  });
}
