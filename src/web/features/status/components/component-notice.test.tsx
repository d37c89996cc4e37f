import { cleanup, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CurrentStatusResponse, Incident } from '#shared/schemas/status';
import { configureApiClient } from '#web/lib/api-client';
import { renderWithQuery as render } from '#web/test/render';
import { startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { ComponentNotice } from './component-notice';

let server: ScriptedApiServer;
beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
});
afterEach(() => {
  cleanup();
  configureApiClient(null);
});

const incident = (over: Partial<Incident> = {}): Incident => ({
  _id: 'i1',
  title: 'Top-ups are delayed',
  impact: 'minor',
  status: 'investigating',
  components: ['payment-provider'],
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  resolvedAt: null,
  updates: [],
  ...over,
});

function now(over: Partial<CurrentStatusResponse> & { payments?: string } = {}): { body: CurrentStatusResponse } {
  const { payments = 'up', ...rest } = over;
  return {
    body: {
      components: [
        { id: 'api', name: 'API', state: 'up' },
        { id: 'payment-provider', name: 'Payment provider', state: payments as 'up' },
        { id: 'swap-provider', name: 'Swap provider', state: 'up' },
      ],
      incidents: [],
      maintenance: [],
      ...rest,
    },
  };
}

/** Waits until the answer is in: a notice that stays away is then known to stay away. */
async function answered(view: ReturnType<typeof renderNotice>) {
  await waitFor(() => expect(view.client.getQueryState(['status', 'current'])?.status).toBe('success'));
}

function renderNotice() {
  return render(
    <MemoryRouter>
      <p>form</p>
      <ComponentNotice component="payment-provider" action="top-ups" />
    </MemoryRouter>,
  );
}

describe('ComponentNotice (docs/decisions/0318-incidents-where-they-matter.md)', () => {
  it('says nothing while the component works', async () => {
    server.on('GET', '/api/status/current', now());
    await answered(renderNotice());
    expect(server.requests.map((r) => r.path)).toEqual(['/api/status/current']);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('names the open incident and what it means for the action, linked to the status page', async () => {
    server.on('GET', '/api/status/current', now({ payments: 'degraded', incidents: [incident()] }));
    renderNotice();
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Top-ups are delayed');
    expect(notice.textContent).toContain('Top-ups may be slow right now.');
    expect(screen.getByRole('link', { name: 'See the status page' }).getAttribute('href')).toBe('/status');
  });

  it('says an outage may make the action fail, from the checks alone when no incident is open', async () => {
    server.on('GET', '/api/status/current', now({ payments: 'down' }));
    renderNotice();
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Payment provider: not working normally');
    expect(notice.textContent).toContain('Top-ups may fail right now.');
    expect(notice.getAttribute('data-state')).toBe('down');
  });

  it('ignores an incident on another component, and counts one naming no component', async () => {
    server.on('GET', '/api/status/current', now({ incidents: [incident({ title: 'Swaps are failing', components: ['swap-provider'] })] }));
    const first = renderNotice();
    await answered(first);
    expect(screen.queryByRole('status')).toBeNull();
    first.unmount();
    first.client.clear();

    server.on('GET', '/api/status/current', now({ incidents: [incident({ title: 'Everything is slow', components: [] })] }));
    renderNotice();
    expect((await screen.findByRole('status')).textContent).toContain('Everything is slow');
  });
});
