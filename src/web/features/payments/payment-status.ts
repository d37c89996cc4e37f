import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
// The messages below need the active language, which the language module sets up on import (decision 0326).
import '#web/features/language';
import type { Payment, PaymentStatus } from '#shared/schemas/payments';
import { formatLocaleCredits, formatLocaleCrypto } from '#web/lib/format';

/** docs/product.md#payment-status: the message for each status (anything else: Waiting for payment...). */
export function paymentStatusMessage(status: string | null | undefined): string {
  switch (status) {
    case 'confirming':
      return t`Payment detected! Waiting for blockchain confirmation...`;
    case 'confirmed':
      return t`Payment confirmed! Processing your credits...`;
    case 'sending':
      return t`Processing payment...`;
    default:
      return t`Waiting for payment...`;
  }
}

/** Statuses the status messages of docs/product.md#payment-status do not cover, explained honestly (docs/product.md#payments). */
export const PROBLEM_STATUS_MESSAGES: Partial<Record<PaymentStatus, { title: MessageDescriptor; text: MessageDescriptor }>> = {
  partially_paid: {
    title: msg`Partially paid`,
    text: msg`We received less than the amount due. The credits for what arrived have been added to your balance. Contact support if you sent the full amount.`,
  },
  failed: {
    title: msg`Payment failed`,
    text: msg`The payment could not be completed (often because the amount sent was below the minimum). No credits were added. Contact support if you sent funds.`,
  },
  refunded: {
    title: msg`Payment refunded`,
    text: msg`The provider refunded this payment to the sender, so it adds no credits; any credited for it earlier were taken back.`,
  },
  expired: {
    title: msg`Payment expired`,
    text: msg`Nothing arrived in time, so this payment expired. Do not send funds to this address; start a new top-up from your dashboard.`,
  },
};

export const STATUS_LABELS: Record<PaymentStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  waiting: msg`Waiting for payment`,
  confirming: msg`Confirming`,
  confirmed: msg`Confirmed`,
  sending: msg`Processing`,
  partially_paid: msg`Partially paid`,
  finished: msg`Finished`,
  completed: msg`Completed`,
  failed: msg`Failed`,
  refunded: msg`Refunded`,
  expired: msg`Expired`,
};

export function isCompleteStatus(status: string | null | undefined): boolean {
  return status === 'completed' || status === 'finished';
}

export type StatusTone = 'neutral' | 'progress' | 'success' | 'warning' | 'danger';

/** What the payment page says about a status (decision 0239): a badge, the headline and a sentence on what happens next. */
export interface PaymentStatusView {
  label: string;
  tone: StatusTone;
  /** The status message of docs/product.md#payment-status, or the problem's title for the statuses it does not cover. */
  headline: string;
  detail: string;
}

const STATUS_DETAILS: Partial<Record<PaymentStatus, { tone: StatusTone; detail: MessageDescriptor }>> = {
  pending: {
    tone: 'neutral',
    detail: msg`Waiting for your payment: send the exact amount above. This page updates by itself once the payment is seen on the network.`,
  },
  waiting: {
    tone: 'neutral',
    detail: msg`Waiting for your payment: send the exact amount above. This page updates by itself once the payment is seen on the network.`,
  },
  confirming: {
    tone: 'progress',
    detail: msg`Payment seen on the network; waiting for confirmations. This usually takes a few minutes and needs nothing more from you.`,
  },
  confirmed: {
    tone: 'progress',
    detail: msg`The network confirmed your payment; the provider is passing it on to us so we can add your credits.`,
  },
  sending: { tone: 'progress', detail: msg`Your payment is being settled; your credits will be added in a moment.` },
  finished: { tone: 'success', detail: msg`Payment received and your credits are being added. Opening your payment summary…` },
  completed: { tone: 'success', detail: msg`Payment received and your credits were added. Opening your payment summary…` },
  partially_paid: { tone: 'warning', detail: PROBLEM_STATUS_MESSAGES.partially_paid!.text },
  failed: { tone: 'danger', detail: PROBLEM_STATUS_MESSAGES.failed!.text },
  refunded: { tone: 'warning', detail: PROBLEM_STATUS_MESSAGES.refunded!.text },
  expired: { tone: 'danger', detail: PROBLEM_STATUS_MESSAGES.expired!.text },
};

/** A partial payment, with what arrived and what was credited for it, when the payment says so. */
function partialDetail(payment: Payment): string | null {
  if (!payment.actuallyPaid || !payment.payAmount) return null;
  const coin = payment.payCurrency.toUpperCase();
  const paid = formatLocaleCrypto(payment.actuallyPaid);
  const due = formatLocaleCrypto(payment.payAmount);
  const credited = formatLocaleCredits(Math.round(payment.creditedAmount * 100));
  return t`${paid} ${coin} of the ${due} ${coin} due arrived, so ${credited} credits were added to your balance for it. Send the rest to the same address to receive the remaining credits, or contact support if you sent the full amount.`;
}

export function paymentStatusView(status: string | null | undefined, payment: Payment | null = null): PaymentStatusView {
  const known = status && status in STATUS_LABELS ? (status as PaymentStatus) : null;
  const problem = known ? PROBLEM_STATUS_MESSAGES[known] : undefined;
  const details = STATUS_DETAILS[known ?? 'waiting']!;
  if (known && isCompleteStatus(known)) {
    return { label: i18n._(STATUS_LABELS[known]), tone: 'success', headline: t`Payment received!`, detail: i18n._(details.detail) };
  }
  return {
    label: i18n._(known ? STATUS_LABELS[known] : STATUS_LABELS.waiting),
    tone: details.tone,
    headline: problem ? i18n._(problem.title) : paymentStatusMessage(status),
    detail: (known === 'partially_paid' && payment && partialDetail(payment)) || i18n._(details.detail),
  };
}
