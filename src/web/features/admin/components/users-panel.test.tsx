import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '#shared/schemas/admin';
import { Toaster } from '#web/components/ui/toaster';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { UserDetailRoute, UsersPanel } from './users-panel';

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
const SESSION = {
  _id: 's1',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-02T00:00:00.000Z',
  ip: '203.0.113.9',
  userAgent: 'Firefox',
};
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
  server.on('GET', `/api/admin/users/${ID}`, {
    body: { user: USER, sessions: [SESSION], counts: { tickets: 1, payments: 0, ledgerEntries: 0 } },
  });
  server.on('GET', `/api/admin/users/${ID}/ledger`, { body: { entries: [], balanceCents: 0, page: 1, pageSize: 20, total: 0 } });
  server.on('GET', '/api/admin/credits/adjustment-requests', { body: { requests: [] } });
  server.on('GET', '/api/auth/2fa', { body: { twoFactor: { totp: false, passkeys: 0, recoveryCodesLeft: 0 }, requiredForStaff: false } });
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

function renderConsole(isAdmin: boolean, path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Toaster />
      <Routes>
        <Route path="/dashboard/staff/users" element={<UsersPanel />} />
        <Route path="/dashboard/staff/users/:id" element={<UserDetailRoute isAdmin={isAdmin} />} />
      </Routes>
    </MemoryRouter>,
  );
}

async function openAlice(isAdmin: boolean) {
  renderConsole(isAdmin, '/dashboard/staff/users');
  fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'alice' } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  const link = await screen.findByRole('link', { name: 'alice' });
  // Each user has a URL of its own.
  expect(link.getAttribute('href')).toBe(`/dashboard/staff/users/${ID}`);
  fireEvent.click(link);
  await screen.findByRole('heading', { name: 'alice' });
  // The balance comes with the ledger, a call of its own.
  await waitFor(() => expect(screen.getByTestId('admin-user-balance').getAttribute('aria-busy')).toBeNull());
}

/** Fills the adjustment form and opens its confirmation. */
function reviewAdjustment(amount: string, reason: string, note = '') {
  fireEvent.change(screen.getByLabelText('Amount (credits, negative to deduct)'), { target: { value: amount } });
  fireEvent.change(screen.getByLabelText('Internal reason (staff only)'), { target: { value: reason } });
  fireEvent.change(screen.getByLabelText('Note for the customer (optional)'), { target: { value: note } });
  fireEvent.click(screen.getByRole('button', { name: 'Review adjustment' }));
}

describe('UsersPanel (operator console)', () => {
  it("shows a user's balance, ledger, sessions, tickets, payments and exchanges to support, without admin actions", async () => {
    await openAlice(false);
    await waitFor(() => expect(screen.getByTestId('admin-user-balance').textContent).toBe('0.00 credits'));
    const session = within(screen.getByRole('table', { name: 'Active sessions' })).getByRole('row', { name: /Firefox/ });
    expect(within(session).getByText('203.0.113.9')).toBeTruthy();
    const tickets = await screen.findByRole('region', { name: 'Recent tickets' });
    // The activity lists load after the user's page: the region is there before its rows.
    expect(await within(tickets).findByText(/#1001 Deposit not showing/)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Recent payments' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Recent exchanges' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Review adjustment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save role' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Disable account/ })).toBeNull();
  });

  it('opens a user straight from their URL, and goes back to the list', async () => {
    renderConsole(false, `/dashboard/staff/users/${ID}`);
    expect(await screen.findByRole('heading', { name: 'alice' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Users' }).getAttribute('href')).toBe('/dashboard/staff/users');
  });

  it('asks for confirmation with the balance before and after, then applies once with the note for the customer', async () => {
    await openAlice(true);
    server.on('POST', '/api/admin/credits/adjustments', {
      status: 201,
      body: { entry: ENTRY, balanceBeforeCents: 0, balanceCents: 1000, created: true },
    });
    reviewAdjustment('10.00', 'Goodwill for a slow deposit', 'Sorry for the wait');

    // Nothing is sent before the confirmation.
    const confirmation = screen.getByTestId('adjust-confirmation');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(within(confirmation).getByTestId('adjust-before').textContent).toBe('0.00 credits');
    expect(within(confirmation).getByTestId('adjust-after').textContent).toBe('10.00 credits');
    expect(within(confirmation).getByText('Sorry for the wait')).toBeTruthy();

    server.on('GET', `/api/admin/users/${ID}/ledger`, {
      body: {
        entries: [{ ...ENTRY, description: 'Sorry for the wait', internalReason: 'Goodwill for a slow deposit' }],
        balanceCents: 1000,
        page: 1,
        pageSize: 20,
        total: 1,
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: 0.00 → 10.00' }));
    await waitFor(() => expect(screen.getByTestId('admin-user-balance').textContent).toBe('10.00 credits'));
    const ledger = screen.getByRole('table', { name: 'Ledger entries' });
    const row = within(ledger).getByText('+10.00').closest('tr')!;
    expect(within(row).getByText('Sorry for the wait')).toBeTruthy();
    expect(within(row).getByText('Goodwill for a slow deposit')).toBeTruthy();
    const posted = server.requests.filter((r) => r.method === 'POST');
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toMatchObject({
      userId: ID,
      amount: 10,
      reason: 'Goodwill for a slow deposit',
      customerNote: 'Sorry for the wait',
      expectedBalanceCents: 0,
      idempotencyKey: expect.stringMatching(/^[a-f0-9]{32}$/),
    });
  });

  it('shows the neutral line the customer will read when no note is given, and goes back without applying', async () => {
    await openAlice(true);
    reviewAdjustment('5', 'Internal: chargeback dispute');
    expect(within(screen.getByTestId('adjust-confirmation')).getByText('Balance adjustment by support')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Review adjustment' })).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('refuses a change below zero before asking the server, and a missing reason', async () => {
    await openAlice(true);
    reviewAdjustment('-5', 'Claw back');
    expect(screen.getByText('That would take the balance below zero (it is 0.00 credits)')).toBeTruthy();
    reviewAdjustment('5', '');
    expect(screen.getByText('Give a reason')).toBeTruthy();
    expect(screen.queryByTestId('adjust-confirmation')).toBeNull();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's refusal when the balance moved since the confirmation", async () => {
    await openAlice(true);
    server.on('POST', '/api/admin/credits/adjustments', {
      status: 409,
      body: {
        error: 'The balance changed to 4.00 credits since you looked. Check the new figures and confirm again.',
        code: 'BALANCE_CHANGED',
      },
    });
    reviewAdjustment('5', 'Goodwill');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: 0.00 → 5.00' }));
    expect((await screen.findByRole('alert')).textContent).toMatch('The balance changed to 4.00 credits');
    expect(screen.getByRole('button', { name: 'Review adjustment' })).toBeTruthy();
  });

  it('pages through a long ledger', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    server.on('GET', `/api/admin/users/${ID}/ledger`, () => {
      const url = fetchSpy.mock.calls
        .map((c) => String(c[0]))
        .filter((u) => u.includes('/ledger'))
        .at(-1)!;
      const page = Number(new URL(url).searchParams.get('page'));
      return {
        body: {
          entries: [{ ...ENTRY, _id: `l${page}`, description: `Entry on page ${page}` }],
          balanceCents: 1000,
          page,
          pageSize: 20,
          total: 21,
        },
      };
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

  it('sends a large adjustment to a second admin: says so plainly, changes no balance, and lists the request', async () => {
    await openAlice(true);
    const REQUEST = {
      _id: 'r1',
      user: { userId: ID, username: 'alice' },
      amountCents: 100_000,
      reason: 'Refund of the failed bank transfer',
      customerNote: null,
      requestedBy: { userId: 'admin-a', username: 'ann' },
      requestedAt: '2026-01-04T00:00:00.000Z',
      status: 'pending',
      decidedBy: null,
      decidedAt: null,
      decisionNote: null,
      ledgerEntryId: null,
    };
    server.on('POST', '/api/admin/credits/adjustments', () => {
      server.on('GET', '/api/admin/credits/adjustment-requests', { body: { requests: [REQUEST] } });
      return { status: 202, body: { request: REQUEST, created: true } };
    });
    const waiting = screen.getByRole('region', { name: 'Waiting for a second admin' });
    expect(await within(waiting).findByText('No adjustment for this user is waiting.')).toBeTruthy();

    reviewAdjustment('1000', 'Refund of the failed bank transfer');
    // Said before anything is sent: this one waits for a second admin.
    expect(screen.getByTestId('adjust-needs-approval').textContent).toContain('a second admin must approve');
    expect(within(screen.getByTestId('adjust-confirmation')).getByText('Balance after approval')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send for approval: 0.00 → 1000.00' }));

    const sent = await screen.findByText('Sent to a second admin for approval.');
    expect(sent.closest('[role="status"]')!.textContent).toContain(
      'the balance stays at 0.00 credits until another admin approves +1000.00 credits',
    );
    expect(screen.queryByText(/Balance adjusted/)).toBeNull();
    expect(screen.getByTestId('admin-user-balance').textContent).toBe('0.00 credits');
    // The form is ready for the next one, and the request is listed below it.
    expect(screen.getByRole('button', { name: 'Review adjustment' })).toBeTruthy();
    const list = await within(waiting).findByRole('list', { name: 'Adjustments waiting for a second admin' });
    expect(within(list).getByText('+1000.00 credits', { selector: 'strong' })).toBeTruthy();
    expect(within(list).getByText('Refund of the failed bank transfer')).toBeTruthy();
    expect(
      server.requests.find((r) => r.path === '/api/admin/credits/adjustment-requests' && r.query.includes(`userId=${ID}`)),
    ).toBeTruthy();
  });

  it("asks for the admin's second factor in the confirmation when two-factor is on, and keeps the confirmation when it is refused", async () => {
    server.on('GET', '/api/auth/2fa', { body: { twoFactor: { totp: true, passkeys: 0, recoveryCodesLeft: 10 }, requiredForStaff: true } });
    server.on('POST', '/api/admin/credits/adjustments', (req) =>
      (req.body as { twoFactorCode?: string }).twoFactorCode === '123456'
        ? { status: 201, body: { entry: ENTRY, balanceBeforeCents: 0, balanceCents: 1000, created: true } }
        : {
            status: 400,
            body: {
              error: 'That code is not right. Check your authenticator app and try again.',
              code: 'INVALID_TWO_FACTOR_CODE',
              details: { fields: { twoFactorCode: 'That code is not right.' }, methods: ['totp', 'recovery'] },
            },
          },
    );
    await openAlice(true);
    reviewAdjustment('10', 'Goodwill');
    const confirmation = screen.getByRole('form', { name: 'Confirm the adjustment' });
    const code = await within(confirmation).findByLabelText('Authentication code or recovery code');
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Confirm: 0.00 → 10.00' }));
    expect((await within(confirmation).findByRole('alert')).textContent).toContain('That code is not right');
    // Still the same confirmation, with the same key: nothing was posted.
    fireEvent.change(within(confirmation).getByLabelText('Authentication code or recovery code'), { target: { value: '123456' } });
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Confirm: 0.00 → 10.00' }));
    expect(await screen.findByText('Balance adjusted: 0.00 → 10.00 credits')).toBeTruthy();
    const posted = server.requests.filter((r) => r.method === 'POST').map((r) => r.body as Record<string, unknown>);
    expect(posted.map((b) => b.twoFactorCode)).toEqual(['000000', '123456']);
    expect(posted[0]!.idempotencyKey).toBe(posted[1]!.idempotencyKey);
  });

  it("asks for the admin's second factor for a role change when the server says so", async () => {
    await openAlice(true);
    server.on('PUT', `/api/admin/users/${ID}/role`, (req) =>
      (req.body as { twoFactorCode?: string }).twoFactorCode
        ? { body: { user: { ...USER, role: 'admin' } } }
        : {
            status: 403,
            body: {
              error: 'Confirm this change with a code from your authenticator app or a recovery code.',
              code: 'TWO_FACTOR_REQUIRED',
              details: { methods: ['totp', 'recovery'] },
            },
          },
    );
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save role' }));
    const form = screen.getByRole('form', { name: 'Change role' });
    const code = await within(form).findByLabelText('Authentication code or recovery code');
    expect(within(form).getByRole('alert').textContent).toContain('Confirm this change with a code');
    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save role' }));
    await screen.findByText('Role saved');
    expect(server.requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      { role: 'admin', subroles: [] },
      { role: 'admin', subroles: [], twoFactorCode: '654321' },
    ]);
  });
});
