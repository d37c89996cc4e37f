/** The payment calls' error messages (docs/product.md#errors), shared by the call files beside this one. */
import { ApiError } from '#web/lib/api-client';

export const PAYMENT_MESSAGES = {
  status: 'Failed to check payment status',
  cryptos: 'Failed to fetch crypto options',
  deposit: 'Failed to create deposit',
  check: 'Failed to check payment',
  mine: 'Failed to fetch my payments',
} as const;

/** An error with the catalogue's message (docs/product.md#errors), keeping the server's own reason (if any) for the details line. */
export class PaymentCallError extends Error {
  constructor(
    message: string,
    readonly reason: string | null,
    readonly status: number,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'PaymentCallError';
  }
}

/** Any failure of a payment call, as a PaymentCallError with the catalogue's `message`. */
export function paymentCallError(message: string, err: unknown): PaymentCallError {
  if (err instanceof ApiError) return new PaymentCallError(message, err.fromServer ? err.message : null, err.status, err.fieldErrors);
  return new PaymentCallError(message, null, 0);
}
