import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { OrderStatus } from '#shared/schemas/catalogue';
import { formatLocaleCredits } from '#web/lib/format';

/** Cents as a credit amount in words, in the page's language: 1250 → "12.50 credits", "12,50 Credits" (de). */
export function creditsLabel(cents: number): string {
  const amount = formatLocaleCredits(cents);
  return t`${amount} credits`;
}

/** An order's status as people read it; a descriptor, translated where it renders (orderStatusLabel). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, MessageDescriptor> = {
  paid: msg`Paid`,
  fulfilled: msg`Fulfilled`,
  refunded: msg`Refunded`,
};

export const orderStatusLabel = (status: OrderStatus): string => i18n._(ORDER_STATUS_LABELS[status]);

/** "3 left", "Sold out" or nothing (unlimited). */
export function stockLabel(stock: number | null): string | null {
  if (stock === null) return null;
  return stock <= 0 ? t`Sold out` : t`${stock} left`;
}

/** Where a ledger entry's receipt lives (the receipts page of docs/product.md#receipts). */
