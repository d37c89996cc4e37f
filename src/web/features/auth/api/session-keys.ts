/**
 * The query keys of the session's server state: the signed-in user and their balance. A file of its
 * own, free of TanStack Query, so the start-up check can name them without loading the library.
 */
export const sessionKeys = {
  user: ['session', 'user'] as const,
  /** Every balance; `credits(userId)` is one user's. */
  allCredits: ['credits'] as const,
  credits: (userId: string | null) => ['credits', 'balance', userId] as const,
};
