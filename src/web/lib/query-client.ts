import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/**
 * Server state in the browser lives in TanStack Query (docs/decisions/0093). Each feature keeps its
 * queries in `features/<name>/api/<verb>-<noun>.ts` (fetcher, query options and hook in one file);
 * mutations invalidate the queries they change. Zustand stores keep client state only (session, UI).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again (not found, forbidden, bad input); network trouble may.
        retry: (failureCount, error) => failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
        staleTime: 5_000,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
