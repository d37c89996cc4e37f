import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusResponse } from '#shared/schemas/status';
import { activateLocale } from '#web/features/language';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import StatusPage from './status-page';

const HOUR = 3600_000;
const now = Date.now();

const REPORT: StatusResponse = {
  overall: 'up',
  components: [],
  incidents: [],
  maintenance: [
    {
      _id: 'm1',
      title: 'Database upgrade',
      description: 'A short pause in top-ups.',
      startsAt: new Date(now + HOUR).toISOString(),
      endsAt: new Date(now + 2 * HOUR).toISOString(),
      state: 'scheduled',
      createdAt: new Date(now).toISOString(),
    },
    {
      _id: 'm2',
      title: 'Node restart',
      description: 'Swaps pause.',
      startsAt: new Date(now - HOUR).toISOString(),
      endsAt: new Date(now + HOUR).toISOString(),
      state: 'in_progress',
      createdAt: new Date(now).toISOString(),
    },
    {
      _id: 'm3',
      title: 'Old work',
      description: 'Done.',
      startsAt: new Date(now - 3 * HOUR).toISOString(),
      endsAt: new Date(now - 2 * HOUR).toISOString(),
      state: 'completed',
      createdAt: new Date(now).toISOString(),
    },
  ],
  generatedAt: new Date(now).toISOString(),
};

const server = setupScriptedApi({ signedIn: false });
beforeEach(() => {
  server.on('GET', '/api/status', { body: REPORT });
});
afterEach(async () => {
  await act(() => activateLocale('en'));
});

function show(path = '/status') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <StatusPage />
    </MemoryRouter>,
  );
}

describe('the status page: maintenance, subscriptions and the feed', () => {
  it('shows scheduled and in-progress maintenance in their own sections, not completed work', async () => {
    show();
    const scheduled = await screen.findByRole('region', { name: 'Scheduled maintenance' });
    expect(scheduled.textContent).toContain('Database upgrade');
    expect(scheduled.textContent).toContain('A short pause in top-ups.');
    expect(scheduled.textContent).not.toContain('Node restart');
    expect(screen.getByRole('region', { name: 'Maintenance in progress' }).textContent).toContain('Node restart');
    expect(screen.queryByText('Old work')).toBeNull();
  });

  it('links the Atom feed visibly and for feed readers', async () => {
    show();
    expect(screen.getByRole('link', { name: 'Atom feed of incidents and maintenance' }).getAttribute('href')).toBe('/api/status/feed.atom');
    const alternate = document.querySelector('link[rel="alternate"][type="application/atom+xml"]');
    expect(alternate?.getAttribute('href')).toBe('/api/status/feed.atom');
  });

  it('links the feed in the reader language (decision 0331)', async () => {
    await act(() => activateLocale('es'));
    show();
    const link = await screen.findByRole('link', { name: 'feed Atom de incidentes y mantenimiento' });
    expect(link.getAttribute('href')).toBe('/api/status/feed.atom?lang=es');
    expect(document.querySelector('link[rel="alternate"][type="application/atom+xml"]')?.getAttribute('href')).toBe(
      '/api/status/feed.atom?lang=es',
    );
  });

  it('subscribes an address and says to check the inbox; a refused address shows the reason', async () => {
    let calls = 0;
    server.on('POST', '/api/status/subscriptions', () => {
      calls += 1;
      return calls === 1
        ? {
            status: 400,
            body: { error: 'Invalid input', code: 'VALIDATION_ERROR', details: { fields: { email: 'Enter a valid email address' } } },
          }
        : { status: 202, body: { message: 'Check your inbox: follow the link in the mail we sent to confirm the subscription.' } };
    });
    show();
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect((await screen.findByRole('status', {}, { timeout: 3000 })).textContent).toContain('Check your inbox');
    expect(server.requests.filter((r) => r.path === '/api/status/subscriptions').map((r) => r.body)).toEqual([
      { email: 'nope' },
      { email: 'ada@example.com' },
    ]);
  });

  it('confirms a subscription from the mail link only when the visitor clicks', async () => {
    server.on('POST', '/api/status/subscriptions/confirm', {
      body: { message: 'Subscribed: you will get a mail for new incidents, their updates and scheduled maintenance.' },
    });
    show('/status/confirm?token=abc.def');
    const button = await screen.findByRole('button', { name: 'Confirm my subscription' });
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests.some((r) => r.path === '/api/status/subscriptions/confirm')).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByText(/^Subscribed:/)).toBeTruthy());
    expect(server.requests.find((r) => r.path === '/api/status/subscriptions/confirm')?.body).toEqual({ token: 'abc.def' });
  });

  it('says an expired confirmation link has expired and keeps the form to subscribe again on the page', async () => {
    server.on('POST', '/api/status/subscriptions/confirm', {
      status: 400,
      body: { error: 'This link has expired. Subscribe again to get a new one.', code: 'TOKEN_EXPIRED' },
    });
    show('/status/confirm?token=abc.def');
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm my subscription' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link has expired. Subscribe again to get a new one.');
    expect(screen.getByRole('form', { name: 'Subscribe to status notices' })).toBeTruthy();
  });
});
