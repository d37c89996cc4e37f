import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HelpArticleListResponse } from '#shared/schemas/help';
import { useLocale } from '#web/features/language';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';
import { readerLocale } from './reader-locale';

/** GET /api/help/articles: the published articles, or those matching `q`, best first; in `locale` where translated. */
export const fetchHelpArticles = (q: string, category: string, signal?: AbortSignal, locale: string | null = null) => {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (category) params.set('category', category);
  if (locale) params.set('locale', locale);
  const query = params.toString();
  return api.get<HelpArticleListResponse>(`/api/help/articles${query ? `?${query}` : ''}`, { signal });
};

export const helpArticlesQueryOptions = (q: string, category: string, locale: string | null = null) =>
  queryOptions({
    queryKey: helpKeys.list(q, category, locale),
    queryFn: ({ signal }) => fetchHelpArticles(q, category, signal, locale),
    // The last results stay while the next search loads.
    placeholderData: keepPreviousData,
  });

/** The list in the page's language. */
export function useHelpArticles(q: string, category: string) {
  const locale = readerLocale(useLocale());
  return useQuery(helpArticlesQueryOptions(q, category, locale));
}
