/** Query keys of the payments feature, so a mutation invalidates exactly what it changes. */
export const paymentKeys = {
  all: ['payments'] as const,
  cryptos: () => ['payments', 'cryptos'] as const,
  mine: (page: number, pageSize: number) => ['payments', 'mine', { page, pageSize }] as const,
  detail: (id: string) => ['payments', 'detail', id] as const,
  status: (id: string) => ['payments', 'status', id] as const,
  ledger: (page: number, pageSize: number) => ['credits', 'history', { page, pageSize }] as const,
  receipt: (entryId: string) => ['credits', 'receipt', entryId] as const,
};
