/** Query keys of the referral programme, so each change invalidates exactly what it touches. */
export const referralKeys = {
  all: ['referrals'] as const,
  summary: () => ['referrals', 'summary'] as const,
  mine: (page: number) => ['referrals', 'mine', page] as const,
  adminAll: () => ['admin', 'referrals'] as const,
  adminList: (filters: { status: string; q: string }, page: number) => ['admin', 'referrals', 'list', { ...filters, page }] as const,
  adminReport: (weeks: number) => ['admin', 'referrals', 'report', weeks] as const,
  adminSettings: () => ['admin', 'referrals', 'settings'] as const,
};
