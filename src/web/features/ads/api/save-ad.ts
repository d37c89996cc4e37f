import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateAdBody, StaffAd, UpdateAdBody } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

/** POST /api/staff/ads (no id) or PUT /api/staff/ads/{id}: create an ad, or change one. */
export function saveAd({ id, body }: { id?: string; body: CreateAdBody | UpdateAdBody }): Promise<{ ad: StaffAd }> {
  return id
    ? api.put<{ ad: StaffAd }>(`/api/staff/ads/${encodeURIComponent(id)}`, body)
    : api.post<{ ad: StaffAd }>('/api/staff/ads', body);
}

/** Saving an ad changes the staff list and what a placement shows. */
export function useSaveAd() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveAd,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: ['staff', 'ads'] }), client.invalidateQueries({ queryKey: ['ads'] })]),
  });
}
