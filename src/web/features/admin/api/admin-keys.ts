/** Query keys of the operator console, so each change invalidates exactly what it touches. */
export const adminKeys = {
  all: ['admin'] as const,
  users: () => ['admin', 'users'] as const,
  userSearch: (search: string) => ['admin', 'users', 'search', search] as const,
  user: (id: string) => ['admin', 'users', 'detail', id] as const,
  userLedger: (id: string, page: number) => ['admin', 'users', 'ledger', id, page] as const,
  userActivity: (id: string) => ['admin', 'users', 'activity', id] as const,
  auditAll: () => ['admin', 'audit'] as const,
  audit: (search: string, page: number) => ['admin', 'audit', { search, page }] as const,
  overview: (days: number) => ['admin', 'overview', days] as const,
  money: (kind: string) => ['admin', 'money', kind] as const,
  moneyList: (kind: string, filters: Record<string, string>, page: number) =>
    ['admin', 'money', kind, 'list', { ...filters, page }] as const,
  moneyItem: (kind: string, id: string) => ['admin', 'money', kind, 'item', id] as const,
  apiKeys: () => ['admin', 'api-keys'] as const,
  adjustmentRequestsAll: () => ['admin', 'adjustment-requests'] as const,
  /** Pending requests, of one user or (no id) of everyone. */
  adjustmentRequests: (userId: string | null) => ['admin', 'adjustment-requests', 'pending', userId ?? 'all'] as const,
};
