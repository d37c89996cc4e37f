import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HelpArticleResponse } from '#shared/schemas/help';
import { useLocale } from '#web/features/language';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';
import { readerLocale } from './reader-locale';

/** GET /api/help/articles/:slug: one published article, rendered by the server, in `locale` when translated. */
export const fetchHelpArticle = (slug: string, signal?: AbortSignal, locale: string | null = null) =>
  api.get<HelpArticleResponse>(`/api/help/articles/${encodeURIComponent(slug)}${locale ? `?locale=${encodeURIComponent(locale)}` : ''}`, {
    signal,
  });

export const helpArticleQueryOptions = (slug: string, locale: string | null = null) =>
  queryOptions({ queryKey: helpKeys.article(slug, locale), queryFn: ({ signal }) => fetchHelpArticle(slug, signal, locale) });

/** The article in the page's language. */
export function useHelpArticle(slug: string) {
  const locale = readerLocale(useLocale());
  return useQuery(helpArticleQueryOptions(slug, locale));
}
