import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { Link, MemoryRouter, Outlet, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './route-error-boundary';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Crash(): never {
  throw new Error('boom');
}

const StaleChunk = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')));

/** The same shape the app uses: a boundary around the layout, and one around the pages inside it. */
function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <RouteErrorBoundary asMain>
        <Routes>
          <Route
            element={
              <div>
                <header>
                  Header stays <Link to="/fine">Somewhere else</Link>
                </header>
                <RouteErrorBoundary>
                  <Suspense fallback={<p>Loading</p>}>
                    <Outlet />
                  </Suspense>
                </RouteErrorBoundary>
              </div>
            }
          >
            <Route path="/crash" element={<Crash />} />
            <Route path="/stale-chunk" element={<StaleChunk />} />
            <Route path="/fine" element={<h1>A working page</h1>} />
          </Route>
        </Routes>
      </RouteErrorBoundary>
    </MemoryRouter>,
  );
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

  it('clears the error when the visitor goes to another page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/crash');
    await screen.findByRole('heading', { name: 'Something went wrong' });
    act(() => {
      fireEvent.click(screen.getByRole('link', { name: 'Somewhere else' }));
    });
    expect(await screen.findByRole('heading', { name: 'A working page' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
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
