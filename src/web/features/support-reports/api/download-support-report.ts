import { useMutation } from '@tanstack/react-query';
import { SUPPORT_REPORT_CSV_PATH } from '#shared/schemas/support-reports';
import { api } from '#web/lib/api-client';
import { saveCsv } from '#web/lib/save-csv';
import type { ReportRange } from './get-support-report';

/** GET /api/staff/support/report.csv?from&to: the same report as one CSV table. */
export async function fetchSupportReportCsv({ from, to }: ReportRange): Promise<{ csv: string; filename: string }> {
  const csv = await api.get<string>(`${SUPPORT_REPORT_CSV_PATH}?${new URLSearchParams({ from, to })}`);
  return { csv: typeof csv === 'string' ? csv : '', filename: `olympus-support-report-${from}-to-${to}.csv` };
}

/** Saves the file (the call needs the Authorization header, so a plain link cannot fetch it). */
export function useDownloadSupportReportCsv() {
  return useMutation({ mutationFn: fetchSupportReportCsv, onSuccess: saveCsv });
}
