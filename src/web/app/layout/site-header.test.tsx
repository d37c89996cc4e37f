import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  authenticatedState,
  clearedState,
  guestState,
  initialSessionState,
  useSessionStore,
} from '#web/features/auth/stores/session-store';
import type { User } from '#shared/schemas/auth';
import { SiteHeader } from './site-header';

function renderHeader(path = '/') {
  const router = createMemoryRouter([{ path: '*', element: <SiteHeader /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const menuButton = () => screen.getByRole('button', { name: 'Menu' });
const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

beforeEach(() => {
  localStorage.clear();
  useSessionStore.setState(clearedState());
});
afterEach(() => {
  cleanup();
  useSessionStore.setState(initialSessionState);
});

describe('site header navigation', () => {
  it('links every public page in order', () => {
    renderHeader();
    const links = within(mainNav())
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual(['Home', 'Jobs', 'Portfolio', 'Reviews', 'Patch Notes', 'Status', 'Login', 'Register']);
  });

  it('marks the current page', () => {
    renderHeader('/jobs');
    expect(within(mainNav()).getByRole('link', { name: 'Jobs' }).getAttribute('aria-current')).toBe('page');
    expect(within(mainNav()).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
  });
});

describe('phone menu', () => {
  it('opens and closes with the Menu button, which reports its state', () => {
    renderHeader();
    const button = menuButton();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-controls')).toBe(mainNav().id);
    expect(mainNav().dataset.open).toBe('false');

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(mainNav().dataset.open).toBe('true');

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(mainNav().dataset.open).toBe('false');
  });

  it('closes on Escape and gives focus back to the Menu button', () => {
    renderHeader();
    fireEvent.click(menuButton());
    within(mainNav()).getByRole('link', { name: 'Jobs' }).focus();

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menuButton());
  });

  it('closes when a link is followed', () => {
    const router = renderHeader();
    fireEvent.click(menuButton());

    fireEvent.click(within(mainNav()).getByRole('link', { name: 'Reviews' }));
    expect(router.state.location.pathname).toBe('/reviews');
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('closes when the page changes some other way (back button)', async () => {
    const router = renderHeader('/jobs');
    await act(() => router.navigate('/portfolio'));
    fireEvent.click(menuButton());
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');

    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/jobs');
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });
});

describe('account links', () => {
  const user: User = {
    _id: 'u1',
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

  it('offers Login and Register to a guest', () => {
    useSessionStore.setState(guestState('g_123', 'guest-token'));
    renderHeader();
    expect(within(mainNav()).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(within(mainNav()).getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/register');
    expect(within(mainNav()).queryByRole('link', { name: 'Dashboard' })).toBeNull();
  });

  it('offers the Dashboard, and no Login, to a signed-in user', () => {
    useSessionStore.setState(authenticatedState(user, 'user-token'));
    renderHeader();
    expect(within(mainNav()).getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(within(mainNav()).queryByRole('link', { name: 'Login' })).toBeNull();
    expect(within(mainNav()).queryByRole('link', { name: 'Register' })).toBeNull();
  });

  it('switches to the Dashboard link as soon as the user signs in', () => {
    renderHeader();
    expect(within(mainNav()).getByRole('link', { name: 'Login' })).toBeTruthy();
    act(() => useSessionStore.setState(authenticatedState(user, 'user-token')));
    expect(within(mainNav()).getByRole('link', { name: 'Dashboard' })).toBeTruthy();
  });
});
