import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/staff/help/preview: the Markdown rendered exactly as readers will see it. */
export const previewHelpArticle = (body: string) => api.post<{ html: string }>('/api/staff/help/preview', { body });

export function usePreviewHelpArticle() {
  return useMutation({ mutationFn: previewHelpArticle });
}
