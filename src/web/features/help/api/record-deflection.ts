import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** POST /api/help/deflections: someone writing a ticket opened a suggested article. */
export const recordDeflection = (slug: string) => api.post<null>('/api/help/deflections', { slug });

export function useRecordDeflection() {
  return useMutation({ mutationFn: recordDeflection });
}
