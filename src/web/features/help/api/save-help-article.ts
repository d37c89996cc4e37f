import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HelpArticleWriteBody, StaffHelpArticleResponse } from '#shared/schemas/help';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';

/** POST /api/staff/help/articles (new) or PUT /api/staff/help/articles/:id (change, publish, unpublish). */
export const saveHelpArticle = ({ id, body }: { id: string | null; body: HelpArticleWriteBody }) =>
  id === null
    ? api.post<StaffHelpArticleResponse>('/api/staff/help/articles', body)
    : api.put<StaffHelpArticleResponse>(`/api/staff/help/articles/${encodeURIComponent(id)}`, body);

export function useSaveHelpArticle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveHelpArticle,
    onSettled: () => client.invalidateQueries({ queryKey: helpKeys.all }),
  });
}
