import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { afterEach } from 'vitest';
import { queryClient } from '#web/lib/query-client';

// The app has one QueryClient, which code outside components writes too (the start-up check, the
// sign-in hooks, the connection callbacks). Tests render with that same client and empty it after
// each test, so no cache is shared between tests; a failing request is not retried.
queryClient.setDefaultOptions({
  queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  mutations: { retry: false },
});
afterEach(() => queryClient.clear());

/** Renders a component the way the app does: inside the app's QueryClient, empty at each test's start. */
export function renderWithQuery(ui: ReactElement, options?: RenderOptions) {
  const Wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return { client: queryClient, ...render(ui, { wrapper: Wrapper, ...options }) };
}
