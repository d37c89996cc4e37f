import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Campaign, CreateCampaignBody } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';

/** POST /api/ad-campaigns: creates a campaign and reserves its budget from the balance. */
export function createCampaign(body: CreateCampaignBody): Promise<{ campaign: Campaign }> {
  return api.post<{ campaign: Campaign }>('/api/ad-campaigns', body);
}

/** Creating a campaign changes my campaigns and my balance. */
export function useCreateCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['ad-campaigns'] }),
        client.invalidateQueries({ queryKey: ['credits'] }),
        client.invalidateQueries({ queryKey: ['ledger'] }),
      ]),
  });
}
