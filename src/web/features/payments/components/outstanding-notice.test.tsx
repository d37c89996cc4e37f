import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Debt } from '#shared/schemas/debts';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { renderWithQuery } from '#web/test/render';
import { OutstandingNotice } from './outstanding-notice';

const PAYMENT = '5d1c2b3a-0000-4000-8000-000000000001';
const DEBT: Debt = {
  _id: 'd1',
  paymentId: PAYMENT,
  reason: 'refunded',
  amountCents: 6_000,
  outstandingCents: 4_950,
  description: 'Crypto payment of 100.00 USD (BTC) refunded to the sender after its 97.00 credits had been partly spent',
  createdAt: '2026-11-20T10:00:00.000Z',
  settledAt: null,
};

const server = setupScriptedApi();

describe('OutstandingNotice', () => {
  it('tells the user what the account owes, why, and for which payment', async () => {
    server.on('GET', '/api/credits/outstanding', {
      body: { outstandingCents: 4_950, debts: [DEBT, { ...DEBT, _id: 'd0', outstandingCents: 0, settledAt: '2026-11-21T00:00:00.000Z' }] },
    });
    renderWithQuery(<OutstandingNotice />);
    const notice = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { name: 'Your account owes 49.50 credits' })).toBeTruthy();
    expect(notice.textContent).toMatch(/sent back to the sender after its credits had been used/);
    expect(notice.textContent).toMatch(/Your next top-ups pay this amount first/);
    // Open debts only, each with the amount still owed and its payment.
    const items = notice.querySelectorAll('li');
    expect(items).toHaveLength(1);
    expect(items[0]!.textContent).toMatch(/^49\.50 credits still owed of 60\.00 - Crypto payment of 100\.00 USD \(BTC\) refunded/);
    expect(items[0]!.querySelector('code')!.textContent).toBe('5d1c2b3a');
    expect(items[0]!.querySelector('code')!.getAttribute('title')).toBe(PAYMENT);
    expect(server.requests.filter((r) => r.path === '/api/credits/outstanding')).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toMatch(/^Bearer /);
  });

  it('shows nothing when nothing is owed', async () => {
    server.on('GET', '/api/credits/outstanding', { body: { outstandingCents: 0, debts: [{ ...DEBT, outstandingCents: 0 }] } });
    const { container } = renderWithQuery(<OutstandingNotice />);
    await waitFor(() => expect(server.requests).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows nothing when the question fails (the balance card reports fetch problems)', async () => {
    server.on('GET', '/api/credits/outstanding', { status: 500, body: { error: 'Down', code: 'INTERNAL' } });
    const { container } = renderWithQuery(<OutstandingNotice />);
    await waitFor(() => expect(server.requests.length).toBeGreaterThanOrEqual(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(container.innerHTML).toBe('');
  });
});
