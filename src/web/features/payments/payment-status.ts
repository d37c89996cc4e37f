import type { PaymentStatus } from '#shared/schemas/payments';

/** docs/product.md#payment-status: the message for each status (anything else: Waiting for payment...). */
export function paymentStatusMessage(status: string | null | undefined): string {
  switch (status) {
    case 'confirming':
      return 'Payment detected! Waiting for blockchain confirmation...';
    case 'confirmed':
      return 'Payment confirmed! Processing your credits...';
    case 'sending':
      return 'Processing payment...';
    default:
      return 'Waiting for payment...';
  }
}

/** Statuses the status messages of docs/product.md#payment-status do not cover, explained honestly (docs/product.md#payments). */
export const PROBLEM_STATUS_MESSAGES: Partial<Record<PaymentStatus, { title: string; text: string }>> = {
  partially_paid: {
    title: 'Partially paid',
    text: 'We received less than the amount due. The credits for what arrived have been added to your balance. Contact support if you sent the full amount.',
  },
  failed: {
    title: 'Payment failed',
    text: 'The payment could not be completed (often because the amount sent was below the minimum). No credits were added. Contact support if you sent funds.',
  },
  refunded: {
    title: 'Payment refunded',
    text: 'The provider refunded this payment to the sender, so it adds no credits; any credited for it earlier were taken back.',
  },
  expired: {
    title: 'Payment expired',
    text: 'Nothing arrived in time, so this payment expired. Do not send funds to this address; start a new top-up from your dashboard.',
  },
};

export const STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Pending',
  waiting: 'Waiting for payment',
  confirming: 'Confirming',
  confirmed: 'Confirmed',
  sending: 'Processing',
  partially_paid: 'Partially paid',
  finished: 'Finished',
  completed: 'Completed',
  failed: 'Failed',
  refunded: 'Refunded',
  expired: 'Expired',
};

export function isCompleteStatus(status: string | null | undefined): boolean {
  return status === 'completed' || status === 'finished';
}
