/** Query keys of the catalogue and its orders, so each change invalidates exactly what it touches. */
export const catalogueKeys = {
  all: ['catalogue'] as const,
  catalogue: () => ['catalogue', 'catalogue'] as const,
  orders: () => ['catalogue', 'orders'] as const,
  myOrders: (page: number) => ['catalogue', 'orders', 'mine', page] as const,
  staff: () => ['catalogue', 'staff'] as const,
  staffCatalogue: () => ['catalogue', 'staff', 'catalogue'] as const,
  staffOrders: (status: string, page: number) => ['catalogue', 'staff', 'orders', { status, page }] as const,
};
