import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HelpArticleResponse } from '#shared/schemas/help';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';

/** GET /api/help/articles/:slug: one published article, rendered by the server. */
export const fetchHelpArticle = (slug: string, signal?: AbortSignal) =>
  api.get<HelpArticleResponse>(`/api/help/articles/${encodeURIComponent(slug)}`, { signal });

export const helpArticleQueryOptions = (slug: string) =>
  queryOptions({ queryKey: helpKeys.article(slug), queryFn: ({ signal }) => fetchHelpArticle(slug, signal) });

export function useHelpArticle(slug: string) {
  return useQuery(helpArticleQueryOptions(slug));
}
