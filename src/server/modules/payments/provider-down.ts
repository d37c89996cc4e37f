import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '#server/errors.js';
import { NowPaymentsError } from './nowpayments.client.js';

/** A failed NOWPayments call as the caller sees it (logged here); deposits and checks answer it. */
export function providerDown(log: FastifyBaseLogger, err: unknown): AppError {
  log.error({ err }, 'NOWPayments call failed');
  // A 400 is the provider refusing this deposit (an amount or currency it will not take right now);
  // anything else is the provider being unreachable.
  if (err instanceof NowPaymentsError && err.status === 400) {
    return new AppError('PAYMENT_PROVIDER_REFUSED', 'The payment provider refused this deposit. Try another amount or currency.');
  }
  return new AppError('PAYMENT_PROVIDER_ERROR', 'The payment provider is not available right now. Please try again in a few minutes.');
}
