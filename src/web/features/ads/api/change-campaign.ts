import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Campaign } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

export type CampaignAction = 'pause' | 'resume' | 'stop';

/** POST /api/ad-campaigns/{id}/pause|resume|stop. Stopping refunds what the campaign did not spend. */
export function changeCampaign({ id, action }: { id: string; action: CampaignAction }): Promise<{ campaign: Campaign }> {
  return api.post<{ campaign: Campaign }>(`/api/ad-campaigns/${encodeURIComponent(id)}/${action}`);
}

export function useChangeCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeCampaign,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['ad-campaigns'] }),
        client.invalidateQueries({ queryKey: ['credits'] }),
        client.invalidateQueries({ queryKey: ['ledger'] }),
      ]),
  });
}
