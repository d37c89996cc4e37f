import { QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor, type RenderOptions } from '@testing-library/react';
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

// A request still on its way when a test ends would land in the next test's cache: a mutation's
// success handler writes its answer there even after the component is gone (under load a reply that
// took 300 ms showed the previous test's closed ticket). So queries are cancelled, mutations are let
// finish, and only then is the cache emptied. Runs after the file's own afterEach (cleanup unmounts).
afterEach(async () => {
  await queryClient.cancelQueries();
  await waitFor(() => {
    if (queryClient.isMutating() > 0) throw new Error('a mutation is still running after the test');
  });
  queryClient.clear();
});

/** Renders a component the way the app does: inside the app's QueryClient, empty at each test's start. */
export function renderWithQuery(ui: ReactElement, options?: RenderOptions) {
  const Wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return { client: queryClient, ...render(ui, { wrapper: Wrapper, ...options }) };
}
