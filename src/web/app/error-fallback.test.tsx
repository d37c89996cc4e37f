import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorFallback } from './error-fallback';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Crash(): never {
  throw new Error('boom');
}

/** The same route shape the app uses: a layout, and pages under a pathless route with the fallback. */
function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <div>
            <header>Header stays</header>
            <Outlet />
          </div>
        ),
        errorElement: <ErrorFallback asMain />,
        hydrateFallbackElement: <p>Loading</p>,
        children: [
          {
            errorElement: <ErrorFallback />,
            children: [
              { path: '/crash', element: <Crash /> },
              {
                path: '/stale-chunk',
                lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
              },
            ],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  return render(<RouterProvider router={router} />);
}

describe('error fallback', () => {
  it('shows Something went wrong with a Reload Page button when a page crashes, keeping the layout', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/crash');

    expect(await screen.findByRole('heading', { level: 1, name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeTruthy();
    expect(screen.getByText('Header stays')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Something went wrong · Olympus'));
  });

  it('catches a page whose code fails to load and explains it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/stale-chunk');

    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText(/could not be loaded/)).toBeTruthy();
  });

  it('reloads the page when Reload Page is pressed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // jsdom cannot navigate; swap in a location whose reload we can observe.
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderAt('/crash');

    const button = await screen.findByRole('button', { name: 'Reload Page' });
    act(() => {
      fireEvent.click(button);
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
