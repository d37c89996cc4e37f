import { useQuery } from '@tanstack/react-query';
import type { HelpSuggestResponse } from '#shared/schemas/help';
import { useLocale } from '#web/features/language';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';
import { readerLocale } from './reader-locale';

/** Suggestions start once the subject has this many letters. */
export const SUGGEST_MIN_LENGTH = 4;

/** GET /api/help/suggestions?q=: up to three articles for a ticket subject being typed. */
export const fetchHelpSuggestions = (q: string, signal?: AbortSignal, locale: string | null = null) =>
  api.get<HelpSuggestResponse>(`/api/help/suggestions?q=${encodeURIComponent(q)}${locale ? `&locale=${encodeURIComponent(locale)}` : ''}`, {
    signal,
  });

/** Suggestions in the page's language, where an article is translated into it. */
export function useHelpSuggestions(q: string) {
  const text = q.trim();
  const locale = readerLocale(useLocale());
  return useQuery({
    queryKey: helpKeys.suggestions(text, locale),
    queryFn: ({ signal }) => fetchHelpSuggestions(text, signal, locale),
    enabled: text.length >= SUGGEST_MIN_LENGTH,
    staleTime: 60_000,
  });
}
