import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithQuery } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { ticket } from '../test/ticket-data';
import { formatBusinessTime, SlaBadges, slaLines } from './sla-badges';
import { StaffQueueRoutes } from '../test/ticket-routes';

/** The SLA badges of the staff queue (docs/decisions/0293): business time left, or how long ago a target was breached. */

const NOW = Date.parse('2026-01-13T11:00:00Z');
const running = (msLeft: number) => ({ state: 'running' as const, dueAt: '2026-01-13T13:10:00.000Z', businessMsLeft: msLeft });
const breachedAt = (iso: string) => ({ state: 'breached' as const, dueAt: iso, businessMsLeft: 0 });

describe('SLA time left', () => {
  it('words business time in hours and minutes', () => {
    expect(formatBusinessTime((2 * 60 + 10) * 60_000)).toBe('2 h 10 m');
    expect(formatBusinessTime(45 * 60_000)).toBe('45 m');
    expect(formatBusinessTime(26 * 60 * 60_000)).toBe('26 h');
    expect(formatBusinessTime(30_000)).toBe('1 m');
  });

  it('shows first response until answered and resolution until resolved, with time left or the breach', () => {
    const t = ticket({ sla: { firstResponse: running((2 * 60 + 10) * 60_000), resolution: breachedAt('2026-01-13T10:00:00.000Z') } });
    render(<SlaBadges ticket={t} now={NOW} />);
    expect(screen.getByText(/2 h 10 m left/).textContent).toMatch(/^Response target: 2 h 10 m left, due /);
    expect(screen.getByText(/Breached 1 h ago/).textContent).toMatch(/^Resolution target: Breached 1 h ago, due /);
    expect(screen.getByText(/2 h 10 m left/).className).toContain('sla-ok');
    expect(screen.getByText(/Breached/).className).toContain('sla-breached');

    // Answered: the response badge goes; resolved: nothing is owed, nothing shows.
    expect(slaLines({ ...t, firstResponseAt: '2026-01-13T09:30:00.000Z' }, NOW).map((l) => l.kind)).toEqual(['Resolution']);
    expect(slaLines({ ...t, firstResponseAt: '2026-01-13T09:30:00.000Z', status: 'resolved' }, NOW)).toEqual([]);
    // The ticket view also names the met ones.
    expect(
      slaLines(
        {
          ...t,
          sla: { firstResponse: { state: 'met', dueAt: t.sla!.firstResponse!.dueAt, businessMsLeft: 0 }, resolution: null },
          firstResponseAt: 'x',
        },
        NOW,
        true,
      ),
    ).toMatchObject([{ kind: 'Response', text: 'Met', tone: 'met' }]);
  });

  it('marks a target due within a business hour as due soon, and shows nothing without a target', () => {
    render(<SlaBadges ticket={ticket({ sla: { firstResponse: running(40 * 60_000), resolution: null } })} now={NOW} />);
    expect(screen.getByText(/40 m left/).className).toContain('sla-soon');
    expect(slaLines(ticket({ sla: { firstResponse: null, resolution: null } }), NOW)).toEqual([]);
    expect(slaLines(ticket(), NOW)).toEqual([]);
  });
});

const server = setupScriptedApi();

describe('the staff queue with SLA', () => {
  it('shows each ticket’s badges and asks the server for breached tickets', async () => {
    const breached = ticket({
      sla: { firstResponse: breachedAt(new Date(Date.now() - 3 * 3_600_000).toISOString()), resolution: running(5 * 3_600_000) },
    });
    server.on('GET', '/api/staff/tickets', (req) => ({
      body: {
        tickets: req.query.includes('sla=breached') ? [breached] : [ticket({ _id: 't2', subject: 'All fine' }), breached],
        page: 1,
        pageSize: 20,
        total: 2,
      },
    }));
    renderWithQuery(<StaffQueueRoutes />);
    const row = await screen.findByRole('link', { name: /Deposit not showing/ });
    expect(within(row).getByText(/Breached 3 h ago/)).toBeTruthy();
    expect(within(row).getByText(/5 h left/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('SLA'), { target: { value: 'breached' } });
    await waitFor(() => expect(screen.queryByRole('link', { name: /All fine/ })).toBeNull());
    expect(within(screen.getByRole('list', { name: 'Tickets' })).getByText(/Breached 3 h ago/)).toBeTruthy();
  });

  it('opens the ticket a breach notice links to (?ticket=), with its targets met or missed', async () => {
    const id = '0b0e9c51-8a53-4a3e-9d0f-3c1f0e1b2a44';
    server.on('GET', '/api/staff/tickets', { body: { tickets: [], page: 1, pageSize: 20, total: 0 } });
    server.on('GET', `/api/staff/tickets/${id}`, {
      body: {
        ticket: ticket({
          _id: id,
          firstResponseAt: '2026-01-13T09:30:00.000Z',
          sla: {
            firstResponse: { state: 'met', dueAt: '2026-01-13T10:00:00.000Z', businessMsLeft: 0 },
            resolution: breachedAt('2026-01-13T10:00:00.000Z'),
          },
        }),
      },
    });
    // The breach notice's link, of the older form: it opens the ticket and moves to the ticket's address.
    renderWithQuery(<StaffQueueRoutes at={`/dashboard/staff/tickets?ticket=${id}`} />);
    expect(await screen.findByText(/^Met/)).toBeTruthy();
    expect(screen.getByText(/Breached/).textContent).toMatch(/^Resolution target: Breached/);
    expect(screen.getByRole('button', { name: '← Back to queue' })).toBeTruthy();
    expect(screen.getByTestId('address').textContent).toBe(`/dashboard/staff/tickets/${id}`);
  });
});
