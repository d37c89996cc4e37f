import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '#web/components/ui/toaster';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { MoneyPanel } from './money-panel';

const PAYMENT = {
  _id: 'p1',
  providerPaymentId: 'np-1',
  status: 'waiting',
  priceAmount: 100,
  payCurrency: 'btc',
  createdAt: '2026-01-02T10:00:00.000Z',
  owner: { userId: 'u1', username: 'alice', guestId: null },
  providerData: { payment_status: 'waiting', pay_address: 'bc1qexample' },
};
const EVENT = {
  _id: 'e1',
  source: 'ipn',
  providerStatus: 'waiting',
  statusBefore: 'pending',
  statusAfter: 'waiting',
  creditedCents: 0,
  body: {},
  createdAt: '2026-01-02T10:01:00.000Z',
};

const server = setupScriptedApi();

function lastListQuery(spy: { mock: { calls: unknown[][] } }): Record<string, string> {
  const url = spy.mock.calls
    .map((c) => String(c[0]))
    .filter((u) => u.includes('/api/admin/payments'))
    .at(-1)!;
  return Object.fromEntries(new URL(url).searchParams);
}

describe('MoneyPanel (operator console payments)', () => {
  it('filters payments by status, currency, user and days', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    server.on('GET', '/api/admin/payments', { body: { payments: [PAYMENT], page: 1, pageSize: 20, total: 1 } });
    render(<MoneyPanel kind="payments" />);
    await screen.findByRole('button', { name: '100.00 USD in BTC' });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'finished' } });
    fireEvent.change(screen.getByLabelText('Currency'), { target: { value: 'btc' } });
    fireEvent.change(screen.getByLabelText('User'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-31' } });
    await waitFor(() =>
      expect(lastListQuery(fetchSpy)).toEqual({
        status: 'finished',
        currency: 'btc',
        user: 'alice',
        from: '2026-01-01',
        to: '2026-01-31',
        page: '1',
        pageSize: '20',
      }),
    );
  });

  it('shows a payment with the provider data and IPN history, and re-checks it with the provider', async () => {
    server.on('GET', '/api/admin/payments', { body: { payments: [PAYMENT], page: 1, pageSize: 20, total: 1 } });
    server.on('GET', '/api/admin/payments/p1', { body: { payment: PAYMENT, events: [EVENT] } });
    server.on('POST', '/api/admin/payments/p1/recheck', {
      body: {
        payment: { ...PAYMENT, status: 'completed', providerData: { payment_status: 'finished' } },
        events: [
          EVENT,
          {
            ...EVENT,
            _id: 'e2',
            source: 'check',
            providerStatus: 'finished',
            statusBefore: 'waiting',
            statusAfter: 'completed',
            creditedCents: 9700,
          },
        ],
      },
    });
    render(
      <>
        <Toaster />
        <MoneyPanel kind="payments" />
      </>,
    );
    fireEvent.click(await screen.findByRole('button', { name: '100.00 USD in BTC' }));
    const history = await screen.findByRole('table', { name: 'Provider history' });
    expect(within(history).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText(/"pay_address": "bc1qexample"/)).toBeTruthy();
    expect(screen.getByText('alice')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Re-check with provider' }));
    await screen.findByText('Checked with the provider');
    expect(within(history).getAllByRole('row')).toHaveLength(3);
    expect(within(history).getByText('97.00')).toBeTruthy();
    expect(screen.getByRole('heading', { name: /completed/ })).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/admin/payments/p1/recheck']);
  });

  it('shows an exchange with its rate, payout and refund addresses', async () => {
    const EXCHANGE = {
      _id: 'x1',
      status: 'waiting',
      from: 'xrp',
      to: 'btc',
      amount: '100',
      payoutAddress: 'bc1qpayout',
      payoutExtraId: null,
      refundAddress: 'rRefundAddress',
      refundExtraId: '12345',
      rateType: 'fixed',
      rateId: 'rate-1',
      rateValidUntil: '2026-01-02T10:10:00.000Z',
      createdAt: '2026-01-02T10:00:00.000Z',
      owner: { userId: 'u1', username: 'alice', guestId: null },
      providerData: null,
    };
    server.on('GET', '/api/admin/exchanges', { body: { exchanges: [EXCHANGE], page: 1, pageSize: 20, total: 1 } });
    server.on('GET', '/api/admin/exchanges/x1', { body: { exchange: EXCHANGE } });
    render(<MoneyPanel kind="exchanges" />);
    fireEvent.click(await screen.findByRole('button', { name: '100 XRP → BTC' }));
    const facts = (await screen.findByText('Refund address')).closest('dl')!;
    expect(within(facts).getByText(/^Fixed, quote valid until /)).toBeTruthy();
    expect(within(facts).getByText('bc1qpayout')).toBeTruthy();
    expect(within(facts).getByText('rRefundAddress (memo 12345)')).toBeTruthy();
  });
});
