import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '#shared/schemas/admin';
import { Toaster } from '#web/components/ui/toaster';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { UsersPanel } from './users-panel';


const ID = '11111111-1111-4111-8111-111111111111';
const USER = {
  _id: ID,
  username: 'alice',
  email: 'alice@example.com',
  role: 'user',
  subroles: [],
  credits: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  disabled: false,
  lastSeenAt: null,
} as unknown as AdminUser;
const SESSION = { _id: 's1', createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-02T00:00:00.000Z', ip: '203.0.113.9', userAgent: 'Firefox' };
const ENTRY = {
  _id: 'l1',
  kind: 'adjustment',
  amountCents: 1000,
  balanceAfterCents: 1000,
  description: 'Goodwill for a slow deposit',
  reference: 'adjustment:k',
  createdAt: '2026-01-03T00:00:00.000Z',
};

const server = setupScriptedApi();
beforeEach(() => {
  server.on('GET', '/api/admin/users', { body: { users: [USER], page: 1, pageSize: 25, total: 1 } });
  server.on('GET', `/api/admin/users/${ID}`, { body: { user: USER, sessions: [SESSION], counts: { tickets: 1, payments: 0, ledgerEntries: 0 } } });
  server.on('GET', `/api/admin/users/${ID}/ledger`, { body: { entries: [], balanceCents: 0, page: 1, pageSize: 20, total: 0 } });
  server.on('GET', '/api/admin/payments', { body: { payments: [], page: 1, pageSize: 10, total: 0 } });
  server.on('GET', '/api/admin/exchanges', { body: { exchanges: [], page: 1, pageSize: 10, total: 0 } });
  server.on('GET', '/api/staff/tickets', {
    body: {
      tickets: [{ _id: 't1', number: 1001, subject: 'Deposit not showing', status: 'open', createdAt: '2026-01-01T00:00:00.000Z' }],
      page: 1,
      pageSize: 10,
      total: 1,
    },
  });
});

async function openAlice(isAdmin: boolean) {
  render(
    <>
      <Toaster />
      <UsersPanel isAdmin={isAdmin} />
    </>,
  );
  fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'alice' } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  fireEvent.click(await screen.findByRole('button', { name: 'alice' }));
  await screen.findByRole('heading', { name: 'alice' });
}

describe('UsersPanel (operator console)', () => {
  it("shows a user's balance, ledger, sessions, tickets, payments and exchanges to support, without admin actions", async () => {
    await openAlice(false);
    expect(screen.getByTestId('admin-user-balance').textContent).toBe('0.00 credits');
    expect(screen.getByText(/Firefox · 203\.0\.113\.9/)).toBeTruthy();
    const tickets = await screen.findByRole('region', { name: 'Recent tickets' });
    expect(within(tickets).getByText(/#1001 Deposit not showing/)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Recent payments' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Recent exchanges' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Apply adjustment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save role' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Disable account/ })).toBeNull();
  });

  it('lets an admin adjust credits with a reason, through one idempotent request, and shows the new balance', async () => {
    await openAlice(true);
    server.on('POST', '/api/admin/credits/adjustments', { status: 201, body: { entry: ENTRY, balanceCents: 1000, created: true } });
    server.on('GET', `/api/admin/users/${ID}/ledger`, { body: { entries: [ENTRY], balanceCents: 1000, page: 1, pageSize: 20, total: 1 } });
    fireEvent.change(screen.getByLabelText('Amount (credits, negative to deduct)'), { target: { value: '10.00' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Goodwill for a slow deposit' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply adjustment' }));
    await waitFor(() => expect(screen.getByTestId('admin-user-balance').textContent).toBe('10.00 credits'));
    const ledger = screen.getByRole('table', { name: 'Ledger entries' });
    expect(within(ledger).getByText('+10.00')).toBeTruthy();
    const posted = server.requests.filter((r) => r.method === 'POST');
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toMatchObject({ userId: ID, amount: 10, reason: 'Goodwill for a slow deposit', idempotencyKey: expect.stringMatching(/^[a-f0-9]{32}$/) });
  });

  it("shows the server's refusal of a negative balance and of a missing reason", async () => {
    await openAlice(true);
    server.on('POST', '/api/admin/credits/adjustments', {
      status: 422,
      body: { error: 'Not enough credits for this change', code: 'INSUFFICIENT_CREDITS' },
    });
    fireEvent.change(screen.getByLabelText('Amount (credits, negative to deduct)'), { target: { value: '-5' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Claw back' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply adjustment' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not enough credits for this change');

    server.on('POST', '/api/admin/credits/adjustments', {
      status: 400,
      body: { error: 'Invalid request', code: 'VALIDATION_FAILED', details: { fields: { reason: 'Give a reason' } } },
    });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply adjustment' }));
    expect(await screen.findByText('Give a reason')).toBeTruthy();
    expect(screen.getByTestId('admin-user-balance').textContent).toBe('0.00 credits');
  });

  it('pages through a long ledger', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    server.on('GET', `/api/admin/users/${ID}/ledger`, () => {
      const url = fetchSpy.mock.calls.map((c) => String(c[0])).filter((u) => u.includes('/ledger')).at(-1)!;
      const page = Number(new URL(url).searchParams.get('page'));
      return { body: { entries: [{ ...ENTRY, _id: `l${page}`, description: `Entry on page ${page}` }], balanceCents: 1000, page, pageSize: 20, total: 21 } };
    });
    await openAlice(false);
    await screen.findByText('Entry on page 1');
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Ledger pages' })).getByRole('button', { name: 'Next' }));
    await screen.findByText('Entry on page 2');
  });

  it('lets an admin change role and subroles, and disable the account with a reason', async () => {
    await openAlice(true);
    server.on('PUT', `/api/admin/users/${ID}/role`, { body: { user: { ...USER, role: 'support', subroles: ['payments', 'vip'] } } });
    server.on('PUT', `/api/admin/users/${ID}/disabled`, { body: { user: { ...USER, disabled: true } } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'support' } });
    fireEvent.change(screen.getByLabelText('Subroles (comma separated)'), { target: { value: 'payments, vip' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save role' }));
    await screen.findByText('Role saved');
    fireEvent.change(screen.getByLabelText('Reason for disabling or re-enabling'), { target: { value: 'fraud review' } });
    fireEvent.click(screen.getByRole('button', { name: 'Disable account' }));
    await screen.findByText('Account disabled');
    expect(server.requests.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      [`/api/admin/users/${ID}/role`, { role: 'support', subroles: ['payments', 'vip'] }],
      [`/api/admin/users/${ID}/disabled`, { disabled: true, reason: 'fraud review' }],
    ]);
  });
});
