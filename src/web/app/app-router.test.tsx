import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { lazy, Suspense, type ComponentType } from 'react';
import { Link, Outlet, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AppBrowserRouter, useNavigationPending } from './app-router';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

function Layout() {
  const pending = useNavigationPending();
  return (
    <div>
      <p data-testid="pending">{String(pending)}</p>
      <Link to="/next">Next page</Link>
      <Suspense fallback={<p>Loading</p>}>
        <Outlet />
      </Suspense>
    </div>
  );
}

describe('the browser router', () => {
  it('keeps the current page and reports pending while the next page loads, then shows it', async () => {
    let loaded!: (module: { default: ComponentType }) => void;
    const Next = lazy(() => new Promise<{ default: ComponentType }>((resolve) => (loaded = resolve)));
    window.history.replaceState(null, '', '/');
    render(
      <AppBrowserRouter>
        <Routes>
          <Route element={<Layout />}>
            <Route path="/" element={<h1>First page</h1>} />
            <Route path="/next" element={<Next />} />
          </Route>
        </Routes>
      </AppBrowserRouter>,
    );
    expect(screen.getByTestId('pending').textContent).toBe('false');

    act(() => {
      fireEvent.click(screen.getByRole('link', { name: 'Next page' }));
    });
    expect(window.location.pathname).toBe('/next');
    expect(await screen.findByText('true')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'First page' })).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();

    await act(async () => {
      loaded({ default: () => <h1>Second page</h1> });
    });
    expect(await screen.findByRole('heading', { name: 'Second page' })).toBeTruthy();
    expect(screen.getByTestId('pending').textContent).toBe('false');
  });

  it('follows the browser back button', async () => {
    window.history.replaceState(null, '', '/');
    render(
      <AppBrowserRouter>
        <Routes>
          <Route path="/" element={<Link to="/b">To b</Link>} />
          <Route path="/b" element={<h1>Page b</h1>} />
        </Routes>
      </AppBrowserRouter>,
    );
    act(() => {
      fireEvent.click(screen.getByRole('link', { name: 'To b' }));
    });
    expect(await screen.findByRole('heading', { name: 'Page b' })).toBeTruthy();
    await act(async () => {
      window.history.back();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(await screen.findByRole('link', { name: 'To b' })).toBeTruthy();
  });
});
