import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { saveCsv } from '#web/lib/save-csv';

/** GET /api/ad-campaigns/{id}/report.csv (or the staff one): the report as CSV text. */
export async function fetchCampaignCsv({ id, staff }: { id: string; staff: boolean }): Promise<{ csv: string; filename: string }> {
  const csv = await api.get<string>(
    `${staff ? '/api/staff/ad-campaigns' : '/api/ad-campaigns'}/${encodeURIComponent(id)}/report.csv?days=366`,
  );
  return { csv: typeof csv === 'string' ? csv : '', filename: `olympus-campaign-${id}.csv` };
}

export function useDownloadCampaignCsv() {
  return useMutation({ mutationFn: fetchCampaignCsv, onSuccess: saveCsv });
}
