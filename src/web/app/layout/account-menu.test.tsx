import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#shared/schemas/auth';
import {
  authenticatedState,
  clearedState,
  guestState,
  initialSessionState,
  useSessionStore,
} from '#web/features/auth/stores/session-store';
import { sessionKeys } from '#web/features/auth/user';
import { queryClient } from '#web/lib/query-client';
import { SiteHeader } from './site-header';

/** What POST /api/logout answers in each test. */
let logoutAnswer: () => unknown = () => ({ message: 'Logout successful' });
vi.mock('#web/lib/api-client', async (importOriginal) =>
  (await import('#web/test/routed-api')).withRoutes(await importOriginal(), {
    'POST /api/logout': () => logoutAnswer(),
  }),
);

const user: User = {
  _id: 'u_1',
  username: 'ada',
  email: 'ada@example.com',
  emailVerified: true,
  role: 'user',
  subroles: [],
  credits: 12.5,
  discord: null,
  telegram: null,
  onboardingCompleted: true,
  referralCode: 'ADA123',
  locale: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

function renderHeader(path = '/dashboard/settings') {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <SiteHeader /> },
      { path: '*', element: <SiteHeader /> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** The menu loads with the query library once someone is signed in (docs/decisions/0245). */
const accountButton = () => screen.findByRole('button', { name: 'Account' });
const accountList = () => screen.getByRole('list', { name: 'Your account' });

beforeEach(() => {
  localStorage.clear();
  logoutAnswer = () => ({ message: 'Logout successful' });
  useSessionStore.setState(authenticatedState(user, 'user-token'));
  // Sign-in put the user into the query cache.
  queryClient.setQueryData(sessionKeys.user, user);
});
afterEach(() => {
  cleanup();
  queryClient.clear();
  useSessionStore.setState(initialSessionState);
});

describe('account menu', () => {
  it('is there only for a signed-in user', () => {
    useSessionStore.setState(guestState('g_1', 'guest-token'));
    renderHeader('/');
    expect(screen.queryByRole('button', { name: 'Account' })).toBeNull();
    cleanup();
    useSessionStore.setState(clearedState());
    renderHeader('/');
    expect(screen.queryByRole('button', { name: 'Account' })).toBeNull();
  });

  it('says who is signed in and links the account pages; staff also get the console', async () => {
    renderHeader();
    const button = await accountButton();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(button.getAttribute('aria-controls')!)?.textContent).toContain('Signed in as ada');
    const links = within(accountList())
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/dashboard'],
      ['Settings', '/dashboard/settings'],
      ['Support', '/dashboard/support'],
    ]);
    expect(within(accountList()).getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');

    cleanup();
    useSessionStore.setState(authenticatedState({ ...user, role: 'support' }, 'user-token'));
    queryClient.setQueryData(sessionKeys.user, { ...user, role: 'support' });
    renderHeader();
    fireEvent.click(await accountButton());
    expect(within(accountList()).getByRole('link', { name: 'Staff console' }).getAttribute('href')).toBe('/dashboard/staff');
  });

  it('closes on Escape and gives focus back to its button; also on a click outside and on a change of page', async () => {
    const router = renderHeader();
    const button = await accountButton();
    fireEvent.click(button);
    within(accountList()).getByRole('link', { name: 'Support' }).focus();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    fireEvent.pointerDown(document.body);
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(button);
    await act(() => router.navigate('/dashboard/support'));
    expect((await accountButton()).getAttribute('aria-expanded')).toBe('false');
  });

  it('signs out and goes to /login', async () => {
    const router = renderHeader();
    fireEvent.click(await accountButton());
    await act(async () => fireEvent.click(within(accountList()).getByRole('button', { name: 'Sign out' })));
    expect(router.state.location.pathname).toBe('/login');
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(screen.queryByRole('button', { name: 'Account' })).toBeNull();
  });

  it('keeps the user signed in, and says so, when signing out fails', async () => {
    logoutAnswer = () => {
      throw new Error('offline');
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = renderHeader();
    fireEvent.click(await accountButton());
    await act(async () => fireEvent.click(within(accountList()).getByRole('button', { name: 'Sign out' })));
    expect(screen.getByRole('alert').textContent).toBe('Could not sign out. Check your connection and try again.');
    expect(router.state.location.pathname).toBe('/dashboard/settings');
    expect(useSessionStore.getState().isAuthenticated).toBe(true);
    errors.mockRestore();
  });
});
