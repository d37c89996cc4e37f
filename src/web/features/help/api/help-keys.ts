/** Query keys of the help centre. */
export const helpKeys = {
  all: ['help'] as const,
  list: (q: string, category: string) => ['help', 'articles', { q, category }] as const,
  article: (slug: string) => ['help', 'article', slug] as const,
  suggestions: (q: string) => ['help', 'suggestions', q] as const,
  staff: () => ['help', 'staff'] as const,
};
