import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Payment, PaymentStatusResponse } from '#shared/schemas/payments';
import { ApiError } from '#web/lib/api-client';
import { PaymentCallError } from '../api/payment-call-error';
import PaymentProcessPage from './payment-process-page';

// The page's calls are replaced so the clock can be faked: polling, countdown and Copied! are all timers.
const api = vi.hoisted(() => ({ getPayment: vi.fn(), getPaymentStatus: vi.fn(), checkPayment: vi.fn() }));
// The server's answers come from these mocks (getPaymentStatus and checkPayment answer the paymentData).
vi.mock('#web/lib/api-client', async (importOriginal) =>
  (await import('#web/test/routed-api')).withRoutes(await importOriginal(), {
    'GET /api/payments/:id/status': async ([id]) => ({ success: true, paymentData: await api.getPaymentStatus(id) }),
    'GET /api/payments/:id': ([id]) => api.getPayment(id),
    'POST /api/payments/check': async (_, body) => {
      const { orderId, txHash } = body as { orderId: string; txHash: string };
      return { success: true, paymentData: await api.checkPayment(orderId, txHash) };
    },
  }),
);
// The QR code's props are what docs/product.md#constants fixes (size 200, high error correction): record them.
const qr = vi.hoisted(() => ({ props: [] as Record<string, unknown>[] }));
vi.mock('qrcode.react', () => ({
  QRCodeSVG: (props: Record<string, unknown>) => {
    qr.props.push(props);
    return <svg data-testid="qr" />;
  },
}));

const ID = '6f1c2a4e-7d8b-4c3a-9e0f-123456789abc';
const ADDRESS = 'bc1qexampleaddress0000000000000000000000';
const PAYMENT: Payment = {
  _id: ID,
  providerPaymentId: '5123456789',
  status: 'waiting',
  priceAmount: 100,
  priceCurrency: 'usd',
  payCurrency: 'btc',
  payAmount: '0.00153846',
  payAddress: ADDRESS,
  extraId: null,
  network: 'btc',
  feePercent: 3,
  fee: 3,
  credits: 97,
  creditedAmount: 0,
  actuallyPaid: null,
  txHash: null,
  failureReason: null,
  expiresAt: '2026-01-01T01:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  completedAt: null,
};
const NOW = Date.parse('2026-01-01T00:00:00.000Z');
const expiryKey = `payment_expiry_${ID}`;
const processUrl = (over: Record<string, string | null> = {}) => {
  const q = new URLSearchParams();
  const all: Record<string, string | null> = { address: ADDRESS, amount: '0.00153846', currency: 'btc', id: ID, ...over };
  for (const [k, v] of Object.entries(all)) if (v !== null) q.set(k, v);
  return `/payment/process?${q.toString()}`;
};

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/payment/process', element: <PaymentProcessPage /> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: ['/dashboard', url], initialIndex: 1 },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** Lets timers run and the (mocked) calls' promises settle, inside act. */
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const statusAnswer = (payment_status: string): PaymentStatusResponse['paymentData'] =>
  ({ payment_status, price_amount: 100, pay_currency: 'btc' }) as PaymentStatusResponse['paymentData'];
const message = () => screen.getByTestId('payment-status-message').textContent;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  localStorage.clear();
  qr.props.length = 0;
  api.getPayment.mockResolvedValue({ payment: PAYMENT, balance: 0, receiptEntryId: null });
  api.getPaymentStatus.mockResolvedValue(statusAnswer('waiting'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('/payment/process', () => {
  it.each(['address', 'amount', 'currency', 'id'])('redirects to /dashboard when %s is missing', async (missing) => {
    const router = renderAt(processUrl({ [missing]: null }));
    await advance(0);
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(api.getPaymentStatus).not.toHaveBeenCalled();
  });

  it('shows the title, warning, countdown, amounts, fee with percentage, credits, QR code and currency notice', async () => {
    renderAt(processUrl());
    await advance(0);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Complete Your Payment');
    expect(screen.getByRole('note').textContent).toMatch(/Do not close this page/);
    expect(screen.getByTestId('payment-countdown').textContent).toBe('60:00');
    expect(screen.getByTestId('payment-pay-amount').textContent).toBe('0.00153846 BTC');
    expect(screen.getByText('≈ 100.00 USD')).toBeTruthy();
    expect(screen.getByText('Processing fee (3%)')).toBeTruthy();
    expect(screen.getByTestId('payment-fee').textContent).toBe('3.00 USD');
    expect(screen.getByTestId('payment-credits').textContent).toBe('97.00');
    expect(screen.getByTestId('payment-address').textContent).toBe(ADDRESS);
    expect(qr.props.at(-1)).toMatchObject({ value: ADDRESS, size: 200, level: 'H' });
    expect(screen.getByText(/to this address/).textContent).toMatch(/^Send only BTC to this address\./);
    expect(screen.queryByTestId('payment-memo')).toBeNull();
    // The deadline is saved per payment, an hour from now (docs/product.md#browser-state, #constants).
    expect(localStorage.getItem(expiryKey)).toBe(String(NOW + 3_600_000));
  });

  it('shows the destination tag / memo with its own Copy button when extraId is present', async () => {
    const xrp = { ...PAYMENT, payCurrency: 'xrp', payAmount: '100', payAddress: 'rExampleAddress', extraId: '123456789' };
    api.getPayment.mockResolvedValue({ payment: xrp, balance: 0, receiptEntryId: null });
    renderAt(processUrl({ address: 'rExampleAddress', amount: '100', currency: 'xrp', extraId: '123456789' }));
    await advance(0);
    expect(screen.getByTestId('payment-memo').textContent).toBe('123456789');
    expect(screen.getByRole('button', { name: 'Copy destination tag / memo' })).toBeTruthy();
  });

  it('counts down from the saved payment_expiry_{id}, so a reload keeps the deadline', async () => {
    localStorage.setItem(expiryKey, String(NOW + 95_000));
    renderAt(processUrl());
    await advance(0);
    expect(screen.getByTestId('payment-countdown').textContent).toBe('01:35');
    expect(localStorage.getItem(expiryKey)).toBe(String(NOW + 95_000));
    await advance(1000);
    expect(screen.getByTestId('payment-countdown').textContent).toBe('01:34');
    await advance(60_000);
    expect(screen.getByTestId('payment-countdown').textContent).toBe('00:34');
  });

  it('at zero removes the saved expiry and goes to /dashboard', async () => {
    localStorage.setItem(expiryKey, String(NOW + 3_000));
    const router = renderAt(processUrl());
    await advance(2_000);
    expect(router.state.location.pathname).toBe('/payment/process');
    expect(localStorage.getItem(expiryKey)).not.toBeNull();
    await advance(1_000);
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(localStorage.getItem(expiryKey)).toBeNull();
  });

  it('polls the status now and then every 15 seconds, showing the message of each status', async () => {
    const answers = ['pending', 'waiting', 'confirming', 'confirmed', 'sending', 'partially_paid'];
    for (const s of answers) api.getPaymentStatus.mockResolvedValueOnce(statusAnswer(s));
    renderAt(processUrl());
    await advance(0);
    expect(api.getPaymentStatus).toHaveBeenCalledTimes(1);
    expect(api.getPaymentStatus).toHaveBeenLastCalledWith(ID);
    expect(message()).toBe('Waiting for payment...');
    const expected = [
      'Waiting for payment...',
      'Payment detected! Waiting for blockchain confirmation...',
      'Payment confirmed! Processing your credits...',
      'Processing payment...',
      'Partially paid',
    ];
    for (const [i, text] of expected.entries()) {
      await advance(14_999);
      expect(api.getPaymentStatus).toHaveBeenCalledTimes(i + 1);
      await advance(1);
      expect(api.getPaymentStatus).toHaveBeenCalledTimes(i + 2);
      expect(message()).toBe(text);
    }
  });

  it.each(['completed', 'finished'])('on %s removes the expiry and replaces the page with /payment/complete?id=', async (status) => {
    api.getPaymentStatus.mockResolvedValueOnce(statusAnswer('confirming')).mockResolvedValueOnce(statusAnswer(status));
    const router = renderAt(processUrl());
    await advance(0);
    expect(message()).toBe('Payment detected! Waiting for blockchain confirmation...');
    await advance(15_000);
    expect(router.state.location.pathname + router.state.location.search).toBe(`/payment/complete?id=${ID}`);
    expect(router.state.historyAction).toBe('REPLACE');
    expect(localStorage.getItem(expiryKey)).toBeNull();
    // Replaced, not pushed: Back leads to where the user was before the payment page.
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it.each([
    ['waiting', 'Waiting for payment', 'Waiting for payment...', /^Waiting for your payment: send the exact amount above\./],
    [
      'confirming',
      'Confirming',
      'Payment detected! Waiting for blockchain confirmation...',
      /^Payment seen on the network; waiting for confirmations\./,
    ],
    ['confirmed', 'Confirmed', 'Payment confirmed! Processing your credits...', /^The network confirmed your payment/],
    ['sending', 'Processing', 'Processing payment...', /credits will be added in a moment/],
    ['failed', 'Failed', 'Payment failed', /No credits were added/],
    ['refunded', 'Refunded', 'Payment refunded', /refunded this payment to the sender/],
    ['expired', 'Expired', 'Payment expired', /Do not send funds to this address/],
  ])('on %s shows the badge %s, the headline and what happens next, in a polite live region', async (status, badge, headline, detail) => {
    api.getPaymentStatus.mockResolvedValue(statusAnswer(status));
    renderAt(processUrl());
    await advance(0);
    const box = screen.getByTestId('payment-status');
    expect(box.getAttribute('aria-live')).toBe('polite');
    expect(screen.getByTestId('payment-status-badge').textContent).toBe(badge);
    expect(message()).toBe(headline);
    expect(screen.getByTestId('payment-status-detail').textContent).toMatch(detail);
  });

  it('on partially paid says how much arrived, what was credited and what to do', async () => {
    api.getPaymentStatus.mockResolvedValue(statusAnswer('partially_paid'));
    api.getPayment.mockResolvedValueOnce({ payment: PAYMENT, balance: 0, receiptEntryId: null }).mockResolvedValue({
      payment: { ...PAYMENT, status: 'partially_paid', actuallyPaid: '0.0008', creditedAmount: 48.5 },
      balance: 48.5,
      receiptEntryId: null,
    });
    renderAt(processUrl());
    await advance(0);
    await advance(10);
    await advance(10);
    expect(api.getPayment).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('payment-status-badge').textContent).toBe('Partially paid');
    expect(message()).toBe('Partially paid');
    expect(screen.getByTestId('payment-status-detail').textContent).toBe(
      '0.0008 BTC of the 0.00153846 BTC due arrived, so 48.50 credits were added to your balance for it. Send the rest to the same address to receive the remaining credits, or contact support if you sent the full amount.',
    );
  });

  it('"Already sent the payment?" is a labelled control that checks the hash and says the status', async () => {
    api.checkPayment.mockResolvedValue(statusAnswer('confirming'));
    renderAt(processUrl());
    await advance(0);
    const toggle = screen.getByText('Already sent the payment? Check it with your transaction hash');
    expect(toggle.closest('summary')?.className).toMatch(/\bbtn\b/);
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('button', { name: 'Check payment' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter the transaction hash');
    expect(api.checkPayment).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Transaction hash'), { target: { value: 'abcdef0123456789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check payment' }));
    await advance(0);
    expect(api.checkPayment).toHaveBeenCalledWith(ID, 'abcdef0123456789');
    expect(
      screen.getByText('Payment detected! Waiting for blockchain confirmation...', { selector: '.payment-check-form p' }),
    ).toBeTruthy();
    expect(message()).toBe('Payment detected! Waiting for blockchain confirmation...');
  });

  it('says Failed to check payment status when a poll fails, and recovers on the next one', async () => {
    api.getPaymentStatus
      .mockRejectedValueOnce(new PaymentCallError('Failed to check payment status', null, 0))
      .mockResolvedValueOnce(statusAnswer('confirming'));
    renderAt(processUrl());
    await advance(0);
    expect(screen.getByText('Failed to check payment status')).toBeTruthy();
    await advance(15_000);
    expect(screen.queryByText('Failed to check payment status')).toBeNull();
    expect(message()).toBe('Payment detected! Waiting for blockchain confirmation...');
  });

  it('Copy buttons copy and read Copied! for 2 seconds', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt(processUrl());
    await advance(0);
    fireEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    await advance(0);
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    await advance(1_999);
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
    await advance(1);
    expect(screen.queryByRole('button', { name: 'Copied!' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeTruthy();
  });

  it('warns instead of showing the QR code and address when the link does not match my payment', async () => {
    renderAt(processUrl({ address: 'bc1qattacker' }));
    await advance(0);
    expect(screen.getByTestId('payment-forged')).toBeTruthy();
    expect(qr.props).toHaveLength(0);
    expect(screen.queryByText(/bc1qattacker/)).toBeNull();
    // No status under the warning: "send the exact amount above" would contradict it.
    expect(screen.queryByTestId('payment-status')).toBeNull();
    expect(screen.queryByText(/send the exact amount/)).toBeNull();
  });

  it('warns the same way when the payment is not mine (404)', async () => {
    api.getPayment.mockRejectedValue(new ApiError(404, 'Payment not found', 'NOT_FOUND'));
    renderAt(processUrl());
    await advance(0);
    expect(screen.getByTestId('payment-forged')).toBeTruthy();
    expect(qr.props).toHaveLength(0);
    expect(screen.queryByTestId('payment-status')).toBeNull();
  });
});
