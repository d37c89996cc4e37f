import { useQuery } from '@tanstack/react-query';
import type { HelpSuggestResponse } from '#shared/schemas/help';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';

/** Suggestions start once the subject has this many letters. */
export const SUGGEST_MIN_LENGTH = 4;

/** GET /api/help/suggestions?q=: up to three articles for a ticket subject being typed. */
export const fetchHelpSuggestions = (q: string, signal?: AbortSignal) =>
  api.get<HelpSuggestResponse>(`/api/help/suggestions?q=${encodeURIComponent(q)}`, { signal });

export function useHelpSuggestions(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: helpKeys.suggestions(text),
    queryFn: ({ signal }) => fetchHelpSuggestions(text, signal),
    enabled: text.length >= SUGGEST_MIN_LENGTH,
    staleTime: 60_000,
  });
}
