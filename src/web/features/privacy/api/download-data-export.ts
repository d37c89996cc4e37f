import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

/**
 * GET /api/users/me/exports/{id}/download with the session's headers, then hands the ZIP to the browser
 * as a download (a plain link would not carry the bearer token).
 */
export async function downloadDataExport(exportId: string): Promise<void> {
  const blob = await api.get<Blob>(`/api/users/me/exports/${encodeURIComponent(exportId)}/download`, { responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = `olympus-data-${new Date().toISOString().slice(0, 10)}.zip`;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
  }
}

export function useDownloadDataExport() {
  return useMutation({ mutationFn: downloadDataExport });
}
