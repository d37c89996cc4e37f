import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { renderWithQuery } from '#web/test/render';
import { MailPanel } from './mail-panel';

const FAILED = {
  _id: '5b1f0c3e-0000-4000-8000-000000000001',
  userId: 'u1',
  kind: 'ticket_reply',
  to: 'ada@example.com',
  subject: 'New reply on ticket #4',
  status: 'failed',
  attempts: 6,
  lastError: 'EENVELOPE 451 Mailbox temporarily unavailable',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastAttemptAt: '2026-01-02T11:00:00.000Z',
  sentAt: null,
};

const server = setupScriptedApi();

describe('MailPanel (staff: outgoing mail)', () => {
  it('lists failed messages with the server answer, and sends one again', async () => {
    server.on('GET', '/api/admin/mail', { body: { messages: [FAILED], page: 1, pageSize: 20, total: 1 } });
    server.on('POST', `/api/admin/mail/${FAILED._id}/retry`, { body: { message: 'The message was queued again' } });
    renderWithQuery(<MailPanel />);
    const table = await screen.findByRole('table', { name: 'Outgoing mail' });
    expect(within(table).getByText('EENVELOPE 451 Mailbox temporarily unavailable')).toBeTruthy();
    expect(server.requests.find((r) => r.path === '/api/admin/mail')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: /Send again/ }));
    expect(await screen.findByText('The message was queued again')).toBeTruthy();
    await waitFor(() => expect(server.requests.filter((r) => r.path === '/api/admin/mail').length).toBeGreaterThanOrEqual(2));
  });

  it('says so when nothing failed', async () => {
    server.on('GET', '/api/admin/mail', { body: { messages: [], page: 1, pageSize: 20, total: 0 } });
    renderWithQuery(<MailPanel />);
    expect(await screen.findByText('No failed messages.')).toBeTruthy();
  });
});
