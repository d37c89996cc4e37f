import type { OrderStatus } from '#shared/schemas/catalogue';

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

/** Where a ledger entry's receipt lives (the receipts page of docs/product.md#receipts). */
