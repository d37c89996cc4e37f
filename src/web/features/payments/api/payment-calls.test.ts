import { describe, expect, it } from 'vitest';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { checkPayment } from './check-payment';
import { createDeposit } from './create-deposit';
import { fetchCryptoOptions } from './get-crypto-options';
import { fetchMyPayments } from './get-my-payments';
import { getPaymentStatus } from './get-payment-status';
import { PaymentCallError } from './payment-call-error';

const ID = '6f1c2a4e-7d8b-4c3a-9e0f-123456789abc';

const server = setupScriptedApi();

/** The catalogue's message (docs/product.md#errors), and the server's own words kept beside it. */
async function failure(promise: Promise<unknown>): Promise<PaymentCallError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PaymentCallError);
  return err as PaymentCallError;
}

describe('payment calls (docs/product.md#api, #errors)', () => {
  it('GET /api/payments/{id}/status answers paymentData, or Failed to check payment status', async () => {
    const paymentData = { payment_status: 'confirming', price_amount: 100, pay_currency: 'btc' };
    server.on('GET', `/api/payments/${ID}/status`, { body: { success: true, paymentData } });
    expect(await getPaymentStatus(ID)).toEqual(paymentData);
    expect(server.requests.at(-1)?.headers.authorization).toMatch(/^Bearer /);

    server.on('GET', `/api/payments/${ID}/status`, { status: 404, body: { error: 'Payment not found', code: 'NOT_FOUND' } });
    const err = await failure(getPaymentStatus(ID));
    expect(err.message).toBe('Failed to check payment status');
    expect(err.reason).toBe('Payment not found');

    server.on('GET', `/api/payments/${ID}/status`, { body: { success: false, paymentData } });
    expect((await failure(getPaymentStatus(ID))).message).toBe('Failed to check payment status');
  });

  it('GET /api/payments/cryptos answers the cryptos list, or an empty list and Failed to fetch crypto options', async () => {
    const cryptos = [{ code: 'btc', name: 'Bitcoin', network: 'btc', hasExtraId: false, logoUrl: null }];
    server.on('GET', '/api/payments/cryptos', { body: { cryptos, limits: { minAmount: 5, maxAmount: 10_000 } } });
    expect(await fetchCryptoOptions()).toEqual({ cryptos, limits: { minAmount: 5, maxAmount: 10_000 }, error: null });
    server.on('GET', '/api/payments/cryptos', { status: 503, body: { error: 'Provider down', code: 'PAYMENT_PROVIDER_ERROR' } });
    expect(await fetchCryptoOptions()).toEqual({ cryptos: [], limits: null, error: 'Failed to fetch crypto options' });
  });

  it('POST /api/payments/deposit sends {crypto, amount}, or fails with Failed to create deposit and the field errors', async () => {
    server.on('POST', '/api/payments/deposit', { status: 201, body: { success: true, payment: { _id: ID } } });
    expect(await createDeposit('btc', 100)).toEqual({ _id: ID });
    expect(server.requests.at(-1)?.body).toEqual({ crypto: 'btc', amount: 100 });

    server.on('POST', '/api/payments/deposit', {
      status: 422,
      body: {
        error: 'Amount must be between 5.00 and 10000.00 USD',
        code: 'AMOUNT_OUT_OF_RANGE',
        details: { fields: { amount: 'Enter an amount from 5.00 to 10000.00 USD' } },
      },
    });
    const err = await failure(createDeposit('btc', 1));
    expect(err.message).toBe('Failed to create deposit');
    expect(err.reason).toBe('Amount must be between 5.00 and 10000.00 USD');
    expect(err.status).toBe(422);
    expect(err.fieldErrors).toMatchObject({ amount: 'Enter an amount from 5.00 to 10000.00 USD' });
  });

  it('POST /api/payments/check sends {orderId, txHash}, or fails with Failed to check payment', async () => {
    const paymentData = { payment_status: 'confirming', price_amount: 100, pay_currency: 'btc' };
    server.on('POST', '/api/payments/check', { body: { success: true, paymentData } });
    expect(await checkPayment(ID, 'abcdef0123456789')).toEqual(paymentData);
    expect(server.requests.at(-1)?.body).toEqual({ orderId: ID, txHash: 'abcdef0123456789' });
    server.on('POST', '/api/payments/check', { status: 503, body: { error: 'Provider down', code: 'PAYMENT_PROVIDER_ERROR' } });
    expect((await failure(checkPayment(ID, 'abcdef0123456789'))).message).toBe('Failed to check payment');
  });

  it('GET /api/payments/mine passes its filters, or answers an empty list and Failed to fetch my payments', async () => {
    server.on('GET', '/api/payments/mine', { body: { payments: [{ _id: ID }], page: 2, pageSize: 5, total: 6 } });
    expect(await fetchMyPayments({ page: 2, pageSize: 5, status: 'completed' })).toEqual({
      payments: [{ _id: ID }],
      page: 2,
      pageSize: 5,
      total: 6,
      error: null,
    });
    server.on('GET', '/api/payments/mine', { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } });
    expect(await fetchMyPayments()).toEqual({ payments: [], page: 1, pageSize: 20, total: 0, error: 'Failed to fetch my payments' });
  });
});
