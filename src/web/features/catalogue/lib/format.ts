import { formatCredits } from '#shared/fees';
import type { OrderStatus } from '#shared/schemas/catalogue';

export const credits = (cents: number) => `${formatCredits(cents)} credits`;

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  paid: 'Paid',
  fulfilled: 'Fulfilled',
  refunded: 'Refunded',
};

/** "3 left", "Sold out" or nothing (unlimited). */
export function stockLabel(stock: number | null): string | null {
  if (stock === null) return null;
  return stock <= 0 ? 'Sold out' : `${stock} left`;
}

export function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** Where a ledger entry's receipt lives (the receipts page of issue 19). */
export const receiptPath = (ledgerEntryId: string) => `/dashboard/receipts/${encodeURIComponent(ledgerEntryId)}`;
