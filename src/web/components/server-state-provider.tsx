import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '#web/lib/query-client';

/**
 * The app's one QueryClient for everything below. Loaded lazily with the parts that use server state
 * (`lazyWithServerState`), so the home page's first render does not carry TanStack Query
 * (docs/decisions/0093). Nesting it is harmless: every copy hands down the same client and cache.
 */
export function ServerStateProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
