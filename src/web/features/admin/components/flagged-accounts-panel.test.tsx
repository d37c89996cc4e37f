import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FlaggedAccount } from '#shared/schemas/debts';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { renderWithQuery } from '#web/test/render';
import { FlaggedAccountsPanel } from './flagged-accounts-panel';

const ACCOUNT: FlaggedAccount = {
  userId: '11111111-1111-4111-8111-111111111111',
  username: 'alice',
  outstandingCents: 6_000,
  openDebts: 1,
  since: '2026-11-20T10:00:00.000Z',
  debts: [
    {
      _id: 'd1',
      paymentId: '5d1c2b3a-0000-4000-8000-000000000001',
      reason: 'refunded',
      amountCents: 6_000,
      outstandingCents: 6_000,
      description: 'Crypto payment of 100.00 USD (BTC) refunded',
      createdAt: '2026-11-20T10:00:00.000Z',
      settledAt: null,
    },
  ],
};

const server = setupScriptedApi();

describe('FlaggedAccountsPanel', () => {
  it('flags each account that owes credits with the amount and the reversed payments', async () => {
    server.on('GET', '/api/admin/credits/outstanding', { body: { accounts: [ACCOUNT], totalOutstandingCents: 6_000 } });
    renderWithQuery(<FlaggedAccountsPanel />);
    expect(screen.getByText('Loading flagged accounts…').getAttribute('aria-busy')).toBe('true');
    const row = await screen.findByTestId(`flagged-${ACCOUNT.userId}`);
    expect(within(row).getByLabelText('Flagged: owes credits').textContent).toBe('Owes credits');
    expect(row.textContent).toContain('alice');
    expect(within(row).getAllByRole('cell')[1]!.textContent).toBe('60.00');
    expect(within(row).getByRole('listitem').textContent).toBe('Payment 5d1c2b3a refunded: 60.00 of 60.00 still owed');
    expect(screen.getByText(/1 account owes 60\.00 credits in all/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Accounts that owe credits' })).toBeTruthy();
  });

  it('says so when no account owes anything, and refreshes on request', async () => {
    server.on('GET', '/api/admin/credits/outstanding', { body: { accounts: [], totalOutstandingCents: 0 } });
    renderWithQuery(<FlaggedAccountsPanel />);
    expect(await screen.findByText('No account owes credits.')).toBeTruthy();
    server.on('GET', '/api/admin/credits/outstanding', { body: { accounts: [ACCOUNT], totalOutstandingCents: 6_000 } });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByTestId(`flagged-${ACCOUNT.userId}`);
    expect(server.requests.filter((r) => r.path === '/api/admin/credits/outstanding')).toHaveLength(2);
  });

  it('reports a failure to load', async () => {
    server.on('GET', '/api/admin/credits/outstanding', { status: 403, body: { error: 'Staff only', code: 'FORBIDDEN' } });
    renderWithQuery(<FlaggedAccountsPanel />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Failed to load the accounts that owe credits\. Staff only/);
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});
