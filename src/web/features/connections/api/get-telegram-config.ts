import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TelegramConfigResponse } from '#shared/schemas/connections';
import { api } from '#web/lib/api-client';

/** GET /api/auth/telegram/config: the Login Widget's settings, or the sandbox login page when no real bot is configured. */
export function getTelegramConfig(signal?: AbortSignal): Promise<TelegramConfigResponse> {
  return api.get<TelegramConfigResponse>('/api/auth/telegram/config', { signal });
}

export const telegramConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['connections', 'telegram-config'],
    queryFn: ({ signal }) => getTelegramConfig(signal),
    staleTime: Infinity,
    retry: false,
  });

export function useTelegramConfig() {
  return useQuery(telegramConfigQueryOptions());
}
