import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  HelpTranslationListResponse,
  HelpTranslationLocale,
  HelpTranslationResponse,
  HelpTranslationWriteBody,
} from '#shared/schemas/help';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';

const translationsPath = (id: string) => `/api/staff/help/articles/${encodeURIComponent(id)}/translations`;

/** GET /api/staff/help/articles/:id/translations: an article's translations (docs/decisions/0328). */
export const fetchHelpTranslations = (id: string, signal?: AbortSignal) =>
  api.get<HelpTranslationListResponse>(translationsPath(id), { signal });

export function useHelpTranslations(id: string | null) {
  return useQuery({
    queryKey: helpKeys.translations(id ?? ''),
    queryFn: ({ signal }) => fetchHelpTranslations(id!, signal),
    enabled: id !== null,
  });
}

/** PUT /api/staff/help/articles/:id/translations/:locale: a translation, new or changed. */
export const saveHelpTranslation = ({ id, locale, body }: { id: string; locale: HelpTranslationLocale; body: HelpTranslationWriteBody }) =>
  api.put<HelpTranslationResponse>(`${translationsPath(id)}/${locale}`, body);

/** DELETE /api/staff/help/articles/:id/translations/:locale: readers of that language read the English again. */
export const deleteHelpTranslation = ({ id, locale }: { id: string; locale: HelpTranslationLocale }) =>
  api.delete<null>(`${translationsPath(id)}/${locale}`);

export function useSaveHelpTranslation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveHelpTranslation, onSettled: () => client.invalidateQueries({ queryKey: helpKeys.all }) });
}

export function useDeleteHelpTranslation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteHelpTranslation, onSettled: () => client.invalidateQueries({ queryKey: helpKeys.all }) });
}
