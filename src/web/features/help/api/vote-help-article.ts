import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/help/articles/:slug/vote: "Was this helpful?" (voting again changes the vote). */
export const voteHelpArticle = ({ slug, helpful }: { slug: string; helpful: boolean }) =>
  api.post<null>(`/api/help/articles/${encodeURIComponent(slug)}/vote`, { helpful });

export function useVoteHelpArticle() {
  return useMutation({ mutationFn: voteHelpArticle });
}
