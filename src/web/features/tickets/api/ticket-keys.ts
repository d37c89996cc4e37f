/** Query keys of the tickets feature: the requester's own (guest or user) and the staff queue. */
export const ticketKeys = {
  mine: (isGuest: boolean) => ['tickets', 'mine', isGuest ? 'guest' : 'user'] as const,
  mineList: (isGuest: boolean, page: number) => ['tickets', 'mine', isGuest ? 'guest' : 'user', 'list', page] as const,
  mineDetail: (isGuest: boolean, id: string) => ['tickets', 'mine', isGuest ? 'guest' : 'user', 'detail', id] as const,
  staff: () => ['tickets', 'staff'] as const,
  staffList: (filters: Record<string, string>, page: number) => ['tickets', 'staff', 'list', { ...filters, page }] as const,
  staffDetail: (id: string) => ['tickets', 'staff', 'detail', id] as const,
  requester: (id: string) => ['tickets', 'staff', 'requester', id] as const,
  staffMembers: () => ['tickets', 'staff', 'members'] as const,
  ratings: () => ['tickets', 'staff', 'ratings'] as const,
  cannedReplies: () => ['tickets', 'staff', 'canned-replies'] as const,
};

/**
 * Tickets update by polling (docs/decisions/0007): while the tab is visible, and at once when the
 * visitor comes back to it; a hidden tab costs the server nothing.
 */
export const pollWhileVisible = (intervalMs: number) =>
  ({ refetchInterval: intervalMs, refetchIntervalInBackground: false, refetchOnWindowFocus: 'always', staleTime: 0 }) as const;
