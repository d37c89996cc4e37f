import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataExportRequested } from '#shared/schemas/privacy';
import { api } from '#web/lib/api-client';
import { latestDataExportQueryKey } from './get-data-export';

/** POST /api/users/me/export: ask for a copy of my data (one a day; 429 EXPORT_ALREADY_REQUESTED after). */
export async function requestDataExport(): Promise<DataExportRequested> {
  return api.post<DataExportRequested>('/api/users/me/export', {});
}

export function useRequestDataExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestDataExport,
    // Refused or not, the latest export is what the panel shows next.
    onSettled: () => client.invalidateQueries({ queryKey: latestDataExportQueryKey }),
  });
}
