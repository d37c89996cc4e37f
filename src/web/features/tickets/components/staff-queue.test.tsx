import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { describe, expect, it, vi } from 'vitest';
import type { Ticket } from '#shared/schemas/tickets';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { StaffQueueRoutes } from '../test/ticket-routes';
import { message, ticket } from '../test/ticket-data';

const server = setupScriptedApi();

function listUrls(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls.map((c) => String(c[0])).filter((u) => u.includes('/api/staff/tickets?'));
}

describe('StaffQueue', () => {
  it('filters the queue by search, status, priority and assignment at once, and pages it', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    server.on('GET', '/api/staff/tickets', { body: { tickets: [ticket()], page: 1, pageSize: 20, total: 45 } });
    render(<StaffQueueRoutes />);
    await screen.findByRole('link', { name: /Deposit not showing/ });
    expect(listUrls(fetchSpy)).toHaveLength(1);
    // The choices read as words, the same as the ticket's badge, not as the API's values.
    const choices = (label: string) => [...(screen.getByLabelText(label) as HTMLSelectElement).options].map((o) => o.textContent);
    expect(choices('Status')).toEqual(['Any', 'Open', 'Waiting for customer', 'Resolved', 'Closed']);
    expect(choices('Priority')).toEqual(['Any', 'Low', 'Normal', 'High', 'Urgent']);

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'deposit' } });
    await waitFor(() => expect(listUrls(fetchSpy).at(-1)).toContain('search=deposit'));
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'pending' } });
    await waitFor(() => expect(listUrls(fetchSpy).at(-1)).toContain('status=pending'));
    fireEvent.change(screen.getByLabelText('Priority'), { target: { value: 'urgent' } });
    await waitFor(() => expect(listUrls(fetchSpy).at(-1)).toContain('priority=urgent'));
    fireEvent.change(screen.getByLabelText('Assigned'), { target: { value: 'me' } });
    await waitFor(() => expect(listUrls(fetchSpy).at(-1)).toContain('assigned=me'));

    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listUrls(fetchSpy).at(-1)).toContain('page=2'));
    const last = new URL(listUrls(fetchSpy).at(-1)!);
    expect(Object.fromEntries(last.searchParams)).toEqual({
      status: 'pending',
      priority: 'urgent',
      search: 'deposit',
      assigned: 'me',
      page: '2',
      pageSize: '20',
    });
  });

  it('opens a ticket, answers it, changes its status and assigns it to the staff member', async () => {
    server.on('GET', '/api/staff/tickets', { body: { tickets: [ticket()], page: 1, pageSize: 20, total: 1 } });
    server.on('GET', '/api/staff/tickets/t1', { body: { ticket: ticket({ messages: [message()] }) } });
    const answer = message({ _id: 'm2', author: 'staff', authorName: 'support_anna', body: 'Looking into it.' });
    const me = { _id: 'staff-1', username: 'support_anna' };
    server.on('POST', '/api/staff/tickets/t1/messages', {
      status: 201,
      body: { ticket: ticket({ status: 'pending', assignedTo: me, messageCount: 2, messages: [message(), answer] }) },
    });
    server.on('PUT', '/api/staff/tickets/t1', (req) => ({
      body: {
        ticket: ticket({
          status: (req.body as { status?: Ticket['status'] }).status ?? 'pending',
          assignedTo: me,
          messageCount: 2,
          messages: [message(), answer],
        }),
      },
    }));
    render(<StaffQueueRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    const thread = await screen.findByRole('list', { name: 'Messages' });
    expect(within(thread).getByText('My deposit is missing.')).toBeTruthy();
    expect(screen.getByText(/From alice · unassigned/)).toBeTruthy();
    // The open ticket is the page's address (a reload or a shared link opens it again).
    expect(screen.getByTestId('address').textContent).toBe('/dashboard/staff/tickets/t1');

    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: 'Looking into it.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await within(thread).findByText('Looking into it.');
    expect(screen.getByText(/assigned to support_anna/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'resolved' } });
    await screen.findByText('Resolved');
    fireEvent.click(screen.getByRole('button', { name: 'Assign to me' }));
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(2));
    expect(server.requests.filter((r) => r.method !== 'GET').map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/api/staff/tickets/t1/messages', { message: 'Looking into it.' }],
      ['PUT', '/api/staff/tickets/t1', { status: 'resolved' }],
      ['PUT', '/api/staff/tickets/t1', { assignToMe: true }],
    ]);
    // Back to the queue, at the queue's address.
    fireEvent.click(screen.getByRole('button', { name: '← Back to queue' }));
    await screen.findByRole('link', { name: /Deposit not showing/ });
    expect(screen.getByTestId('address').textContent).toBe('/dashboard/staff/tickets');
  });

  it('shows only the newest answer when filters change faster than the server answers', async () => {
    const realFetch = globalThis.fetch;
    // The search for "a" is slow; the search for "ab", sent after it, answers first.
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (new URL(String(input)).searchParams.get('search') === 'a') await new Promise((r) => setTimeout(r, 300));
      return realFetch(input, init);
    });
    server.on('GET', '/api/staff/tickets', () => {
      const searches = server.requests.filter((r) => r.path === '/api/staff/tickets').length;
      return searches === 1
        ? { body: { tickets: [], page: 1, pageSize: 20, total: 0 } }
        : searches === 2
          ? { body: { tickets: [ticket({ _id: 'fresh', subject: 'Fresh answer' })], page: 1, pageSize: 20, total: 1 } }
          : { body: { tickets: [ticket({ _id: 'slow', subject: 'Stale answer' })], page: 1, pageSize: 20, total: 1 } };
    });
    render(<StaffQueueRoutes />);
    await screen.findByText('No tickets match these filters.');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'a' } });
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'ab' } });
    await screen.findByText('Fresh answer');
    await new Promise((r) => setTimeout(r, 400));
    expect(screen.queryByText('Stale answer')).toBeNull();
    expect(screen.getByText('Fresh answer')).toBeTruthy();
  });
});
