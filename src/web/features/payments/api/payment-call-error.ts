/** The payment calls' error messages (docs/product.md#errors), shared by the call files beside this one. */
import { t } from '@lingui/core/macro';
// The messages below need the active language, which the language module sets up on import (decision 0326).
import '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';

// Read when a call fails, so each message is in the language on screen then (decision 0326).
export const PAYMENT_MESSAGES = {
  get status() {
    return t`Failed to check payment status`;
  },
  get cryptos() {
    return t`Failed to fetch crypto options`;
  },
  get deposit() {
    return t`Failed to create deposit`;
  },
  get check() {
    return t`Failed to check payment`;
  },
  get mine() {
    return t`Failed to fetch my payments`;
  },
};

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
  if (err instanceof ApiError)
    return new PaymentCallError(message, err.fromServer ? errorMessage(err, err.message) : null, err.status, err.fieldErrors);
  return new PaymentCallError(message, null, 0);
}
