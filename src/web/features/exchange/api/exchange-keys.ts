/** Query keys of the exchange feature. */
export const exchangeKeys = {
  all: ['exchange'] as const,
  currencies: () => ['exchange', 'currencies'] as const,
  estimate: (from: string, to: string, amount: number, rateType: string) =>
    ['exchange', 'estimate', { from, to, amount, rateType }] as const,
  range: (from: string, to: string, rateType: string) => ['exchange', 'range', { from, to, rateType }] as const,
  detail: (id: string) => ['exchange', 'detail', id] as const,
  mine: (owner: string | null) => ['exchange', 'mine', owner] as const,
  rewardsStatus: (version: number, exchangeIds: string[]) => ['exchange', 'guest-rewards-status', version, exchangeIds] as const,
};
