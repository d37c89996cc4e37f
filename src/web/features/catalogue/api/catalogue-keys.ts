/** Query keys of the shop (catalogue and orders), so each change invalidates exactly what it touches. */
export const shopKeys = {
  all: ['shop'] as const,
  catalogue: () => ['shop', 'catalogue'] as const,
  orders: () => ['shop', 'orders'] as const,
  myOrders: (page: number) => ['shop', 'orders', 'mine', page] as const,
  staff: () => ['shop', 'staff'] as const,
  staffCatalogue: () => ['shop', 'staff', 'catalogue'] as const,
  staffOrders: (status: string, page: number) => ['shop', 'staff', 'orders', { status, page }] as const,
};
