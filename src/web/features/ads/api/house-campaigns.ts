import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Campaign, CreateHouseCampaignBody } from '#shared/schemas/ads';
import { api } from '#web/lib/api-client';
import type { CampaignAction } from './change-campaign';

/** POST /api/staff/ad-campaigns: an admin creates a house campaign (nothing is reserved; docs/decisions/0283). */
export function createHouseCampaign(body: CreateHouseCampaignBody): Promise<{ campaign: Campaign }> {
  return api.post<{ campaign: Campaign }>('/api/staff/ad-campaigns', body);
}

export function useCreateHouseCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createHouseCampaign,
    onSuccess: () => client.invalidateQueries({ queryKey: ['staff', 'ad-campaigns'] }),
  });
}

/** POST /api/staff/ad-campaigns/{id}/pause|resume|stop: a house campaign (stopping refunds nothing). */
export function changeHouseCampaign({ id, action }: { id: string; action: CampaignAction }): Promise<{ campaign: Campaign }> {
  return api.post<{ campaign: Campaign }>(`/api/staff/ad-campaigns/${encodeURIComponent(id)}/${action}`);
}

export function useChangeHouseCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeHouseCampaign,
    onSuccess: () => client.invalidateQueries({ queryKey: ['staff', 'ad-campaigns'] }),
  });
}
