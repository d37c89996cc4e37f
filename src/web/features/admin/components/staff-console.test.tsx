import { cleanup, screen, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { MemoryRouter, Route, Routes } from 'react-router';
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
    <MemoryRouter initialEntries={[`/dashboard/staff${path === '/' ? '' : path}`]}>
      <Routes>
        <Route path="/dashboard/staff/*" element={<StaffConsole />} />
      </Routes>
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
    // Grouped by area, each group a list named by its title; a way back to the dashboard above them.
    const groups = within(nav)
      .getAllByRole('list')
      .map((list) => [
        list.getAttribute('aria-labelledby') ? document.getElementById(list.getAttribute('aria-labelledby')!)!.textContent : '',
        within(list)
          .getAllByRole('link')
          .map((a) => a.textContent),
      ]);
    expect(groups).toEqual([
      ['', ['Overview']],
      ['People', ['Users', 'Closing accounts']],
      // The referral programme's list, decisions and settings are for admins only.
      ['Money', ['Payments', 'Exchanges', 'Catalogue', ...(role === 'admin' ? ['Referrals'] : [])]],
      ['Support', ['Tickets', 'Reports', 'Automation', 'Business hours & SLA']],
      ['Content', ['Help centre', 'Ads', 'Ad review', 'Ad campaigns']],
      // The charge API's keys are for admins only.
      ['Operations', ['Incidents', 'Audit log', 'Mail', ...(role === 'admin' ? ['API keys'] : [])]],
    ]);
    expect(within(nav).getByRole('link', { name: '← Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(within(nav).getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    // A phone gets the same sections as one menu, grouped the same way.
    const menu = screen.getByRole('combobox', { name: 'Staff console section' });
    expect([...menu.querySelectorAll('optgroup')].map((g) => g.label)).toEqual([
      'Staff',
      'People',
      'Money',
      'Support',
      'Content',
      'Operations',
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
    expect([...backlog.querySelectorAll('title')].map((title) => title.textContent)).toEqual(['January 1, 2026: 2', 'January 2, 2026: 3']);
    expect(server.requests[0]!.path).toBe('/api/admin/overview');
  });

  it.each(['/api-keys', '/referrals'])(
    'answers a staff URL that names no section, or one the role may not open (%s), with a way back',
    (path) => {
      asRole('support');
      renderAt(path);
      expect(screen.getByRole('heading', { name: 'Nothing here' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Back to the overview' }).getAttribute('href')).toBe('/dashboard/staff');
      expect(server.requests).toEqual([]);
    },
  );
});
