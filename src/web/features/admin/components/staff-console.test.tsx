import { cleanup, screen } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureApiClient } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';
import { makeToken, startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { sessionKeys } from '#web/features/auth/user';
import { queryClient } from '#web/lib/query-client';
import { useSessionStore } from '#web/features/auth';
import { StaffConsole } from './staff-console';

let server: ScriptedApiServer;

function asRole(role: string) {
  useSessionStore.setState({ isAuthenticated: true, userId: 'u1' });
  queryClient.setQueryData(sessionKeys.user, { _id: 'u1', username: 'someone', role } as never);
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <StaffConsole />
    </MemoryRouter>,
  );
}

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  storage.setToken(makeToken());
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
  const day = (d: string, n: number) => ({
    day: d,
    signups: 2 * n,
    deposits: n,
    depositedCents: 9700 * n,
    creditsIssuedCents: 10_700 * n,
    creditsSpentCents: 350 * n,
    ticketsOpened: n,
    openTickets: 2 + n,
  });
  server.on('GET', '/api/admin/overview', { body: { days: [day('2026-01-01', 0), day('2026-01-02', 1)], openTickets: 3, totalUsers: 12 } });
});
afterEach(() => {
  cleanup();
  configureApiClient(null);
  useSessionStore.setState({ isAuthenticated: false, userId: null });
});

describe('StaffConsole', () => {
  it('shows a plain user no staff links and calls nothing', () => {
    asRole('user');
    renderAt('/');
    expect(screen.getByText('This area is for the support team.')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Staff' })).toBeNull();
    expect(server.requests).toEqual([]);
  });

  it.each(['support', 'admin'])('shows %s the staff tabs and the overview', async (role) => {
    asRole(role);
    renderAt('/');
    const nav = screen.getByRole('navigation', { name: 'Staff' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Overview',
      'Users',
      'Tickets',
      'Reports',
      'Automation',
      'Help centre',
      'Business hours & SLA',
      'Payments',
      'Exchanges',
      'Catalogue',
      'Ads',
      'Ad review',
      'Ad campaigns',
      'Incidents',
      'Audit log',
      'Mail',
      'Closing accounts',
      // The charge API's keys are for admins only.
      ...(role === 'admin' ? ['API keys'] : []),
    ]);
    expect(await screen.findByText('12 users · 3 open tickets')).toBeTruthy();
    expect(screen.getAllByRole('img').map((chart) => chart.getAttribute('aria-label'))).toEqual([
      'Sign-ups per day, 2 in total',
      'Deposits per day, 1 in total',
      'Credits issued per day, 107.00 in total',
      'Credits spent per day, 3.50 in total',
      'Tickets opened per day, 1 in total',
      'Open tickets at the end of each day, 3 on the last day',
    ]);
    // The backlog is a level, not a sum: its caption gives the last day's count, each bar its own.
    const backlog = screen.getByRole('img', { name: /^Open tickets at the end of each day/ });
    expect(backlog.closest('figure')!.querySelector('figcaption')!.textContent).toBe('Open tickets 3 at the end of the last day');
    expect([...backlog.querySelectorAll('title')].map((title) => title.textContent)).toEqual(['2026-01-01: 2', '2026-01-02: 3']);
    expect(server.requests[0]!.path).toBe('/api/admin/overview');
  });

  it('answers a staff URL that names no section, or one the role may not open, with a way back', () => {
    asRole('support');
    renderAt('/api-keys');
    expect(screen.getByRole('heading', { name: 'Nothing here' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the overview' }).getAttribute('href')).toBe('/dashboard/staff');
    expect(server.requests).toEqual([]);
  });
});
