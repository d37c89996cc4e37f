import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SUPPORT_REPORT_PATH, type SupportReport } from '#shared/schemas/support-reports';
import { api } from '#web/lib/api-client';

export interface ReportRange {
  from: string;
  to: string;
}

/** GET /api/staff/support/report?from&to: the desk's figures for tickets created in those days (UTC). */
export function getSupportReport({ from, to }: ReportRange, signal?: AbortSignal): Promise<SupportReport> {
  return api.get<SupportReport>(`${SUPPORT_REPORT_PATH}?${new URLSearchParams({ from, to })}`, { signal });
}

export function useSupportReport(range: ReportRange) {
  return useQuery({
    queryKey: ['staff', 'support-report', range.from, range.to],
    queryFn: ({ signal }) => getSupportReport(range, signal),
    // The last report stays on screen while the next range loads.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
