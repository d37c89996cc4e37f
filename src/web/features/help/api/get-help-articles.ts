import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HelpArticleListResponse } from '#shared/schemas/help';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';

/** GET /api/help/articles: the published articles, or those matching `q`, best first. */
export const fetchHelpArticles = (q: string, category: string, signal?: AbortSignal) => {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (category) params.set('category', category);
  const query = params.toString();
  return api.get<HelpArticleListResponse>(`/api/help/articles${query ? `?${query}` : ''}`, { signal });
};

export const helpArticlesQueryOptions = (q: string, category: string) =>
  queryOptions({
    queryKey: helpKeys.list(q, category),
    queryFn: ({ signal }) => fetchHelpArticles(q, category, signal),
    // The last results stay while the next search loads.
    placeholderData: keepPreviousData,
  });

export function useHelpArticles(q: string, category: string) {
  return useQuery(helpArticlesQueryOptions(q, category));
}
