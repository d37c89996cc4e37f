import { act, cleanup, screen } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { renderWithQuery as render } from '#web/test/render';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Payment } from '#shared/schemas/payments';
import { ApiError } from '#web/lib/api-client';
import { useSessionStore } from '#web/features/auth';
import PaymentCompletePage from './payment-complete-page';

const api = vi.hoisted(() => ({ getPayment: vi.fn(), getCredits: vi.fn() }));
vi.mock('#web/lib/api-client', async (importOriginal) =>
  (await import('#web/test/routed-api')).withRoutes(await importOriginal(), {
    'GET /api/payments/:id': ([id]) => api.getPayment(id),
    'GET /api/users/:id/credits': ([id]) => api.getCredits(id),
  }),
);

const ID = '6f1c2a4e-7d8b-4c3a-9e0f-123456789abc';
const ENTRY_ID = '5b1f0c3e-0000-4000-8000-000000000009';
const PAYMENT: Payment = {
  _id: ID,
  providerPaymentId: '5123456789',
  status: 'completed',
  priceAmount: 100,
  priceCurrency: 'usd',
  payCurrency: 'btc',
  payAmount: '0.00153846',
  payAddress: 'bc1qexample',
  extraId: null,
  network: 'btc',
  feePercent: 3,
  fee: 3,
  credits: 97,
  creditedAmount: 97,
  actuallyPaid: '0.00153846',
  txHash: null,
  failureReason: null,
  expiresAt: '2026-01-01T01:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:10:00.000Z',
  completedAt: '2026-01-01T00:10:00.000Z',
};

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/payment/complete',
        element: (
          <>
            <PaymentCompletePage />
            <Toaster />
          </>
        ),
      },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  api.getCredits.mockResolvedValue({ credits: 127 });
  useSessionStore.setState({ isAuthenticated: true, isGuest: false, userId: 'u1' });
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  vi.clearAllMocks();
});

describe('/payment/complete', () => {
  it('shows what was paid, the credits added, the new balance and a link back', async () => {
    api.getPayment.mockResolvedValue({ payment: PAYMENT, balance: 127, receiptEntryId: ENTRY_ID });
    renderAt(`/payment/complete?id=${ID}`);
    expect(await screen.findByTestId('complete-credits')).toHaveProperty('textContent', '97.00');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Payment complete');
    expect(api.getPayment).toHaveBeenCalledWith(ID);
    expect(screen.getByText('0.00153846 BTC (100.00 USD)')).toBeTruthy();
    expect(screen.getByText('Processing fee (3%)')).toBeTruthy();
    expect(screen.getByTestId('complete-balance').textContent).toBe('127.00 credits');
    expect(screen.getByRole('link', { name: 'Back to my wallet' }).getAttribute('href')).toBe('/dashboard/wallet');
    // It names the payment: what, when, and a reference a person can quote to support.
    const named = screen.getByTestId('payment-named').textContent!;
    expect(named).toContain('Top-up of 100.00 USD in BTC, started');
    expect(named).toContain(`reference ${ID.slice(0, 8)}`);
    // The balance shown elsewhere in the app follows.
    expect(api.getCredits).toHaveBeenCalledWith('u1');
  });

  it('says what was credited, in the page and a toast, and links to the receipt of the credit', async () => {
    api.getPayment.mockResolvedValue({ payment: PAYMENT, balance: 127, receiptEntryId: ENTRY_ID });
    renderAt(`/payment/complete?id=${ID}`);
    expect((await screen.findByTestId('complete-credited')).textContent).toBe('97.00 credits added. Balance: 127.00 credits.');
    expect(await screen.findByText('Payment credited: 97.00 credits added. Balance: 127.00 credits.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View the receipt of this top-up' }).getAttribute('href')).toBe(
      `/dashboard/receipts/${ENTRY_ID}`,
    );
  });

  it('has no receipt link while nothing is credited', async () => {
    api.getPayment.mockResolvedValue({ payment: { ...PAYMENT, status: 'failed', creditedAmount: 0 }, balance: 0, receiptEntryId: null });
    renderAt(`/payment/complete?id=${ID}`);
    expect(await screen.findByText('Status: Failed')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'View the receipt of this top-up' })).toBeNull();
    expect(screen.queryByText(/Payment credited/)).toBeNull();
  });

  it('is honest about a partial payment: the credits actually added, not the full amount', async () => {
    api.getPayment.mockResolvedValue({
      payment: { ...PAYMENT, status: 'partially_paid', creditedAmount: 47.5, actuallyPaid: '0.00076923' },
      balance: 47.5,
      receiptEntryId: ENTRY_ID,
    });
    renderAt(`/payment/complete?id=${ID}`);
    expect((await screen.findByTestId('complete-credits')).textContent).toBe('47.50');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Payment status');
    expect(screen.getByText('Status: Partially paid')).toBeTruthy();
    expect(screen.getByText(/We received less than the amount due/)).toBeTruthy();
  });

  it('says so when the payment is not mine', async () => {
    api.getPayment.mockRejectedValue(new ApiError(404, 'Payment not found', 'NOT_FOUND'));
    renderAt(`/payment/complete?id=${ID}`);
    expect((await screen.findByRole('alert')).textContent).toBe('We could not find this payment in your account.');
    expect(screen.queryByTestId('complete-credits')).toBeNull();
  });

  it('goes to /dashboard without an id', async () => {
    const router = renderAt('/payment/complete');
    await screen.findByText('elsewhere');
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(api.getPayment).not.toHaveBeenCalled();
  });
});
