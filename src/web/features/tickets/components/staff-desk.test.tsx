import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { describe, expect, it } from 'vitest';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { StaffQueueRoutes } from '../test/ticket-routes';
import { firstResponseLabel, formatDuration } from './first-response';
import { message, ticket } from '../test/ticket-data';

const server = setupScriptedApi();
const STAFF = [
  { _id: 'staff-1', username: 'support_anna', role: 'support' },
  { _id: 'staff-2', username: 'support_ben', role: 'support' },
];

function desk() {
  server.on('GET', '/api/staff/tickets/staff-members', { body: { staff: STAFF } });
  server.on('GET', '/api/staff/ticket-replies', {
    body: {
      replies: [{ _id: 'c1', title: 'Deposit delay', body: 'Deposits need 2 confirmations.', updatedAt: '2026-01-01T10:00:00.000Z' }],
    },
  });
  server.on('GET', '/api/staff/tickets/ratings', {
    body: { overall: { average: 4.5, count: 2 }, byStaff: [{ _id: 'staff-1', username: 'support_anna', average: 4.5, count: 2 }] },
  });
}

describe('first-response timer', () => {
  it('formats durations and says whether the requester still waits', () => {
    expect(formatDuration((2 * 60 + 14) * 60_000 + 30_000)).toBe('2h 14m');
    expect(formatDuration(35 * 60_000)).toBe('35m');
    expect(formatDuration(26 * 60 * 60_000)).toBe('1d 2h');
    const opened = '2026-01-01T10:00:00.000Z';
    expect(firstResponseLabel({ createdAt: opened, firstResponseAt: '2026-01-01T10:35:00.000Z', status: 'pending' }, 0)).toBe(
      'first response in 35m',
    );
    expect(firstResponseLabel({ createdAt: opened, firstResponseAt: null, status: 'open' }, Date.parse(opened) + 134 * 60_000)).toBe(
      'waiting 2h 14m',
    );
    expect(firstResponseLabel({ createdAt: opened, firstResponseAt: null, status: 'closed' }, Date.parse(opened) + 60_000)).toBeNull();
  });
});

describe('StaffQueue support desk', () => {
  it('shows the assignee and the first-response timer in the queue, and the average rating', async () => {
    desk();
    const waitingSince = new Date(Date.now() - (134 * 60_000 + 20_000)).toISOString();
    server.on('GET', '/api/staff/tickets', {
      body: {
        tickets: [
          ticket({ createdAt: waitingSince }),
          ticket({
            _id: 't2',
            number: 1002,
            subject: 'Answered one',
            assignedTo: { _id: 'staff-1', username: 'support_anna' },
            firstResponseAt: '2026-01-01T10:35:00.000Z',
          }),
        ],
        page: 1,
        pageSize: 20,
        total: 2,
      },
    });
    render(<StaffQueueRoutes />);
    const first = await screen.findByRole('link', { name: /Deposit not showing/ });
    expect(within(first).getByText(/waiting 2h 1[45]m/)).toBeTruthy();
    expect(within(first).getByText('Unassigned')).toBeTruthy();
    const second = screen.getByRole('link', { name: /Answered one/ });
    expect(within(second).getByText(/first response in 35m/)).toBeTruthy();
    expect(within(second).getByText('Assigned to support_anna')).toBeTruthy();
    expect(await screen.findByText('4.50 / 5')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Average rating per staff member' })).getByText(/support_anna: 4.50/)).toBeTruthy();
  });

  it('adds an internal note, inserts a canned reply, assigns to a named staff member and merges a duplicate', async () => {
    desk();
    // The merge looks the typed number up with the queue's search (the scripted server sees no query).
    server.on('GET', '/api/staff/tickets', {
      body: { tickets: [ticket(), ticket({ _id: 't5', number: 1005, subject: 'Duplicate' })], page: 1, pageSize: 20, total: 2 },
    });
    server.on('GET', '/api/staff/tickets/t1', { body: { ticket: ticket({ messages: [message()] }) } });
    const note = message({ _id: 'm2', author: 'staff', authorName: 'support_anna', body: 'Check the provider first.', kind: 'internal' });
    server.on('POST', '/api/staff/tickets/t1/messages', { status: 201, body: { ticket: ticket({ messages: [message(), note] }) } });
    server.on('PUT', '/api/staff/tickets/t1', {
      body: { ticket: ticket({ assignedTo: { _id: 'staff-2', username: 'support_ben' }, messages: [message(), note] }) },
    });
    const event = message({
      _id: 'm3',
      author: 'staff',
      authorName: 'support_anna',
      body: 'Ticket #1005 was merged into this ticket.',
      kind: 'event',
    });
    server.on('POST', '/api/staff/tickets/t1/merge', { body: { ticket: ticket({ messages: [message(), note, event] }) } });

    render(<StaffQueueRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    const thread = await screen.findByRole('list', { name: 'Messages' });

    expect(screen.queryByText('Internal note — customers won’t see this')).toBeNull();
    fireEvent.click(screen.getByLabelText(/Internal note \(the requester never sees it\)/));
    // The reply box says plainly that this one stays internal.
    expect(screen.getByText('Internal note — customers won’t see this')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Internal note'), { target: { value: 'Check the provider first.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await within(thread).findByText('Check the provider first.');
    expect(within(thread).getByText('Internal note')).toBeTruthy();

    // The canned reply goes into the (now visible-reply) box; nothing is sent until staff send it.
    fireEvent.change(await screen.findByLabelText('Insert canned reply'), { target: { value: 'c1' } });
    expect((screen.getByLabelText('Your reply') as HTMLTextAreaElement).value).toBe('Deposits need 2 confirmations.');

    fireEvent.change(screen.getByLabelText('Assignee'), { target: { value: 'staff-2' } });
    await screen.findByText(/assigned to support_ben/);

    fireEvent.change(screen.getByLabelText('Number of the duplicate ticket to merge into this one'), { target: { value: '#1005' } });
    fireEvent.click(screen.getByRole('button', { name: 'Merge into this ticket' }));
    await within(thread).findByText('Ticket #1005 was merged into this ticket.');

    expect(server.requests.filter((r) => r.method !== 'GET').map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/api/staff/tickets/t1/messages', { message: 'Check the provider first.', internal: true }],
      ['PUT', '/api/staff/tickets/t1', { assigneeId: 'staff-2' }],
      ['POST', '/api/staff/tickets/t1/merge', { sourceId: 't5' }],
    ]);
  });

  it('lets staff add a canned reply', async () => {
    desk();
    server.on('GET', '/api/staff/tickets', { body: { tickets: [], page: 1, pageSize: 20, total: 0 } });
    server.on('POST', '/api/staff/ticket-replies', {
      status: 201,
      body: { reply: { _id: 'c2', title: 'Thanks', body: 'Thank you!', updatedAt: '2026-01-01T10:00:00.000Z' } },
    });
    render(<StaffQueueRoutes />);
    fireEvent.click(await screen.findByText(/Canned replies \(1\)/));
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Thanks' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Thank you!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add canned reply' }));
    await waitFor(() => expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ title: 'Thanks', body: 'Thank you!' }));
  });
});
