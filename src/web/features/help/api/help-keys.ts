/** Query keys of the help centre; the public ones carry the language asked for (null: English). */
export const helpKeys = {
  all: ['help'] as const,
  list: (q: string, category: string, locale: string | null = null) => ['help', 'articles', { q, category, locale }] as const,
  article: (slug: string, locale: string | null = null) => ['help', 'article', slug, locale] as const,
  suggestions: (q: string, locale: string | null = null) => ['help', 'suggestions', q, locale] as const,
  staff: () => ['help', 'staff'] as const,
  translations: (id: string) => ['help', 'staff', 'translations', id] as const,
};
