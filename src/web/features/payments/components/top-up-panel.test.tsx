import type * as ApiClient from '#web/lib/api-client';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CryptoOption, Payment } from '#shared/schemas/payments';
import { ApiError } from '#web/lib/api-client';
import { TopUpPanel } from './top-up-panel';

const api = vi.hoisted(() => ({ fetchCryptoOptions: vi.fn(), createDeposit: vi.fn() }));
// The server's answers come from these mocks (fetchCryptoOptions answers as the call does; its error stands for a failed request).
vi.mock('#web/lib/api-client', async (importOriginal) => {
  const real = await importOriginal<typeof ApiClient>();
  return (await import('#web/test/routed-api')).withRoutes(real, {
    'GET /api/payments/cryptos': async () => {
      const { cryptos, limits, error } = await api.fetchCryptoOptions();
      if (error) throw new real.ApiError(503, 'Provider down', 'PAYMENT_PROVIDER_ERROR');
      return { cryptos, limits };
    },
    'POST /api/payments/deposit': async (_, body) => {
      const { crypto, amount } = body as { crypto: string; amount: number };
      return { success: true, payment: await api.createDeposit(crypto, amount) };
    },
  });
});

const coin = (code: string, name: string, hasExtraId = false): CryptoOption => ({ code, name, network: code, hasExtraId, logoUrl: null });
const CRYPTOS = [coin('btc', 'Bitcoin'), coin('eth', 'Ethereum'), coin('xrp', 'Ripple', true)];
const PAYMENT: Payment = {
  _id: '6f1c2a4e-7d8b-4c3a-9e0f-123456789abc',
  providerPaymentId: '5123456789',
  status: 'waiting',
  priceAmount: 50,
  priceCurrency: 'usd',
  payCurrency: 'xrp',
  payAmount: '100',
  payAddress: 'rExampleAddress',
  extraId: '123456789',
  network: 'xrp',
  feePercent: 5,
  fee: 2.5,
  credits: 47.5,
  creditedAmount: 0,
  actuallyPaid: null,
  txHash: null,
  failureReason: null,
  expiresAt: '2026-01-01T01:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  completedAt: null,
};

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

async function renderPanel(entry = '/dashboard') {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <TopUpPanel /> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [entry] },
  );
  render(<RouterProvider router={router} />);
  await screen.findByRole('radiogroup', { name: 'Currencies' });
  return router;
}

const amountInput = () => screen.getByLabelText('Amount (USD)');
const summary = () => ({
  fee: screen.getByTestId('topup-fee').textContent,
  credits: screen.getByTestId('topup-credits').textContent,
  label: screen.getByText(/^Processing fee/).textContent,
});

beforeEach(() => {
  localStorage.clear();
  api.fetchCryptoOptions.mockResolvedValue({ cryptos: CRYPTOS, limits: { minAmount: 5, maxAmount: 10_000 }, error: null });
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('TopUpPanel', () => {
  it('fills in the payment that covers the credits a ?topup= link asks for, at least the minimum', async () => {
    const router = await renderPanel('/dashboard?topup=100.00');
    expect(screen.getByTestId('topup-wanted').textContent).toContain('You need 100.00 more credits');
    // 103.09 USD less the 3% fee (3.09) is exactly 100.00 credits.
    expect((amountInput() as HTMLInputElement).value).toBe('103.09');
    expect(summary().credits).toBe('100.00 credits');
    expect(document.activeElement).toBe(amountInput());
    // A small shortfall still asks for the minimum deposit; a new link fills the form again.
    await act(() => router.navigate('/dashboard?topup=2.34'));
    expect((amountInput() as HTMLInputElement).value).toBe('5.00');
    expect(screen.getByTestId('topup-wanted').textContent).toContain('You need 2.34 more credits');
  });

  it('ignores a ?topup= value that is not an amount', async () => {
    await renderPanel('/dashboard?topup=abc');
    expect((amountInput() as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('topup-wanted')).toBeNull();
  });

  it('filters the currency list as I type', async () => {
    await renderPanel();
    const list = screen.getByRole('radiogroup', { name: 'Currencies' });
    expect(within(list).getAllByRole('radio')).toHaveLength(3);
    fireEvent.change(screen.getByLabelText('Search currencies'), { target: { value: 'bitc' } });
    expect(
      within(list)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual(['btc']);
    fireEvent.change(screen.getByLabelText('Search currencies'), { target: { value: 'XRP' } });
    expect(
      within(list)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual(['xrp']);
    fireEvent.change(screen.getByLabelText('Search currencies'), { target: { value: 'nothing' } });
    expect(within(list).queryAllByRole('radio')).toHaveLength(0);
  });

  it('shows the fee with its tier percentage and the credits before confirming', async () => {
    await renderPanel();
    const cases: [string, string, string, string][] = [
      ['100', 'Processing fee (3%)', '3.00 USD', '97.00 credits'],
      ['99.99', 'Processing fee (5%)', '5.00 USD', '94.99 credits'],
      ['500', 'Processing fee (1%)', '5.00 USD', '495.00 credits'],
      ['10.10', 'Processing fee (5%)', '0.51 USD', '9.59 credits'],
    ];
    for (const [amount, label, fee, credits] of cases) {
      fireEvent.change(amountInput(), { target: { value: amount } });
      expect(summary()).toEqual({ label, fee, credits });
    }
  });

  it('does not crash on an absurd amount and does not call the server with it', async () => {
    await renderPanel();
    fireEvent.click(screen.getByRole('radio', { name: /Bitcoin/ }));
    fireEvent.change(amountInput(), { target: { value: '1e20' } });
    expect(summary().fee).toBe('—');
    fireEvent.click(screen.getByRole('button', { name: 'Pay with BTC' }));
    expect(screen.getByText('Enter an amount in USD')).toBeTruthy();
    fireEvent.change(amountInput(), { target: { value: '10001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay with BTC' }));
    expect(screen.getByText('Enter an amount from 5.00 to 10000.00 USD')).toBeTruthy();
    expect(api.createDeposit).not.toHaveBeenCalled();
  });

  it('creates the deposit, saves its expiry and opens /payment/process with the query of docs/product.md#routes', async () => {
    api.createDeposit.mockResolvedValue(PAYMENT);
    const router = await renderPanel();
    fireEvent.click(screen.getByRole('radio', { name: /Ripple/ }));
    fireEvent.change(amountInput(), { target: { value: '50' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Pay with XRP' }));
    });
    expect(api.createDeposit).toHaveBeenCalledWith('xrp', 50);
    await screen.findByTestId('where');
    expect(router.state.location.pathname).toBe('/payment/process');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      address: 'rExampleAddress',
      amount: '100',
      currency: 'xrp',
      id: PAYMENT._id,
      extraId: '123456789',
    });
    expect(localStorage.getItem(`payment_expiry_${PAYMENT._id}`)).toBe(String(Date.parse(PAYMENT.expiresAt)));
  });

  it('reads Creating payment… and refuses a second press while the deposit is being created', async () => {
    let answer: (p: Payment) => void = () => undefined;
    api.createDeposit.mockReturnValue(new Promise<Payment>((resolve) => (answer = resolve)));
    await renderPanel();
    fireEvent.click(screen.getByRole('radio', { name: /Ripple/ }));
    fireEvent.change(amountInput(), { target: { value: '50' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Pay with XRP' }));
    });
    const busy = screen.getByRole('button', { name: 'Creating payment…' });
    expect(busy).toHaveProperty('disabled', true);
    fireEvent.click(busy);
    expect(api.createDeposit).toHaveBeenCalledTimes(1);
    await act(async () => answer(PAYMENT));
    await screen.findByTestId('where');
  });

  it('says Failed to create deposit, with the server reason and field error, when the deposit is refused', async () => {
    api.createDeposit.mockRejectedValue(
      new ApiError(422, 'The minimum for BTC is 6.00 USD', 'AMOUNT_OUT_OF_RANGE', {
        fields: { amount: 'The minimum for BTC is 6.00 USD' },
      }),
    );
    await renderPanel();
    fireEvent.click(screen.getByRole('radio', { name: /Bitcoin/ }));
    fireEvent.change(amountInput(), { target: { value: '5' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Pay with BTC' }));
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to create deposit')).toBeTruthy();
    expect(within(alert).getByText('The minimum for BTC is 6.00 USD')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay with BTC' })).toBeTruthy();
  });

  it('says Failed to fetch crypto options when the list cannot be loaded', async () => {
    api.fetchCryptoOptions.mockResolvedValue({ cryptos: [], limits: null, error: 'Failed to fetch crypto options' });
    render(<RouterProvider router={createMemoryRouter([{ path: '/', element: <TopUpPanel /> }])} />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch crypto options');
    expect(screen.queryByRole('radiogroup')).toBeNull();
  });
});
