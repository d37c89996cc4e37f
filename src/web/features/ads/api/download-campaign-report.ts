import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/** GET /api/ad-campaigns/{id}/report.csv (or the staff one): the report as CSV text. */
export async function fetchCampaignCsv({ id, staff }: { id: string; staff: boolean }): Promise<{ csv: string; filename: string }> {
  const csv = await api.get<string>(`${staff ? '/api/staff/ad-campaigns' : '/api/ad-campaigns'}/${encodeURIComponent(id)}/report.csv?days=366`);
  return { csv: typeof csv === 'string' ? csv : '', filename: `olympus-campaign-${id}.csv` };
}

/** Saves the file through a temporary link (the call needs the Authorization header, so no plain link). */
function save({ csv, filename }: { csv: string; filename: string }) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useDownloadCampaignCsv() {
  return useMutation({ mutationFn: fetchCampaignCsv, onSuccess: save });
}
