import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#shared/schemas/auth';
import { authenticatedState, clearedState, useSessionStore } from '#web/features/auth/stores/session-store';
import { AppRoutes } from './router';

const user: User = {
  _id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  emailVerified: true,
  role: 'user',
  subroles: [],
  credits: 0,
  discord: null,
  telegram: null,
  onboardingCompleted: true,
  referralCode: 'ADA123',
  locale: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

beforeAll(() => {
  // jsdom does no layout: give it the scrolling calls the pages make.
  Element.prototype.scrollIntoView = vi.fn();
  window.scrollTo = vi.fn() as typeof window.scrollTo;
});
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  useSessionStore.setState(clearedState());
});

/** The app's real route table, in memory, starting at `path`. */
function renderApp(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
}

describe('404 page', () => {
  it('shows Page not found inside the layout, with a link home', async () => {
    renderApp('/no-such-page');

    const heading = await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    const main = screen.getByRole('main');
    expect(main.contains(heading)).toBe(true);
    expect(within(main).getByText('/no-such-page')).toBeTruthy();
    expect(within(main).getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Page not found · Olympus'));
  });

  it('is shown for unknown paths under known words too', async () => {
    renderApp('/jobs/extra/segments');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });
});

describe('page titles and descriptions', () => {
  it.each([
    ['/', 'Crypto credits, swaps and rewards · Olympus'],
    ['/jobs', 'Jobs · Olympus'],
    ['/portfolio', 'Portfolio · Olympus'],
    ['/reviews', 'Reviews · Olympus'],
    ['/patch-notes', 'Patch Notes · Olympus'],
    ['/status', 'Status · Olympus'],
    ['/privacy', 'Privacy Policy · Olympus'],
    ['/terms', 'Terms of Service · Olympus'],
  ])('%s is titled "%s" and describes itself', async (path, title) => {
    renderApp(path);
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(document.title).toBe(title));
    const description = document.head.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
    expect(description.length).toBeGreaterThan(30);
  });
});

describe('home page', () => {
  it('offers visitors a way in and has the exchange section', async () => {
    renderApp('/');
    const hero = (await screen.findByRole('heading', { level: 1 })).closest('section')!;
    expect(within(hero).getByRole('link', { name: 'Create a free account' }).getAttribute('href')).toBe('/register');
    expect(within(hero).getByRole('button', { name: 'Continue as guest' })).toBeTruthy();
    expect(document.getElementById('exchange')).not.toBeNull();
  });

  it('offers the dashboard instead once signed in', async () => {
    renderApp('/');
    const hero = (await screen.findByRole('heading', { level: 1 })).closest('section')!;
    // Signing in (after the start-up check has found no session) updates the page in place.
    await waitFor(() => expect(useSessionStore.getState().sessionChecked).toBe(true));
    act(() => useSessionStore.setState(authenticatedState(user, 'user-token')));
    expect(within(hero).getByRole('link', { name: 'Go to your dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(within(hero).queryByRole('button', { name: 'Continue as guest' })).toBeNull();
  });
});

describe('legal documents', () => {
  it('opens the privacy policy at the section a sub-path names', async () => {
    renderApp('/privacy/cookies');
    const heading = await screen.findByRole('heading', { level: 2, name: 'Cookies and local storage' });
    expect(document.activeElement).toBe(heading);
    expect(heading.scrollIntoView).toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Cookies and local storage' }).getAttribute('aria-current')).toBe('location');
  });

  it('shows the whole terms for an unknown sub-path instead of a 404', async () => {
    renderApp('/terms/not-a-section');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Credits' })).toBeTruthy();
  });

  it('quotes the fee tiers the product charges', async () => {
    renderApp('/terms/payments');
    expect(await screen.findByText(/5% below \$100, 3% for \$100 to \$499\.99, 1% for \$500 or more/)).toBeTruthy();
  });
});
