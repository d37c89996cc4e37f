import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaffHelpArticleListResponse } from '#shared/schemas/help';
import { api } from '#web/lib/api-client';
import { helpKeys } from './help-keys';

/** GET /api/staff/help/articles: every article, drafts too, with votes and tickets avoided. */
export const fetchStaffHelpArticles = (signal?: AbortSignal) =>
  api.get<StaffHelpArticleListResponse>('/api/staff/help/articles', { signal });

export const staffHelpArticlesQueryOptions = () =>
  queryOptions({ queryKey: helpKeys.staff(), queryFn: ({ signal }) => fetchStaffHelpArticles(signal) });

export function useStaffHelpArticles() {
  return useQuery(staffHelpArticlesQueryOptions());
}
