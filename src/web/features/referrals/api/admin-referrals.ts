import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminReferral,
  AdminReferralListResponse,
  ReferralReportResponse,
  ReferralSettings,
  ReferralSettingsResponse,
  ReferralStatus,
} from '#shared/schemas/referrals';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { saveCsv } from '#web/lib/save-csv';
import { referralKeys } from './referral-keys';

/** How many referrals a page of the staff list shows. */
export const ADMIN_REFERRALS_PAGE_SIZE = 20;
/** How many weeks the staff report shows (and the CSV holds). */
export const REPORT_WEEKS = 12;

export interface AdminReferralFilters {
  status: ReferralStatus | '';
  q: string;
}

/** GET /api/admin/referrals: one page of every referral, by status and by a username or email. */
export function getAdminReferrals(filters: AdminReferralFilters, page: number, signal?: AbortSignal): Promise<AdminReferralListResponse> {
  const query = toQueryString({ status: filters.status, q: filters.q.trim(), page, pageSize: ADMIN_REFERRALS_PAGE_SIZE });
  return api.get<AdminReferralListResponse>(`/api/admin/referrals${query}`, { signal });
}

/** Typed filters ask once per key: the key holds them all, so only the newest answer is shown. */
export const adminReferralsQueryOptions = (filters: AdminReferralFilters, page: number) =>
  queryOptions({
    queryKey: referralKeys.adminList(filters, page),
    queryFn: ({ signal }) => getAdminReferrals(filters, page, signal),
    placeholderData: keepPreviousData,
  });

export function useAdminReferrals(filters: AdminReferralFilters, page: number) {
  return useQuery(adminReferralsQueryOptions(filters, page));
}

export type ReferralDecision = 'refuse' | 'reverse';

/**
 * POST /api/admin/referrals/:id/refuse or /reverse with the note the referrer reads; a reversal takes
 * credits back, so it carries the admin's second factor when they have one (docs/security.md#staff-powers).
 */
export const decideReferral = ({
  id,
  decision,
  note,
  ...stepUp
}: { id: string; decision: ReferralDecision; note: string } & StepUpFieldsInput) =>
  api.post<{ referral: AdminReferral }>(`/api/admin/referrals/${encodeURIComponent(id)}/${decision}`, { note, ...stepUp });

/** A decision changes the list, the report and (for the referrer) their own figures. */
export function useDecideReferral() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideReferral,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: referralKeys.adminAll() }),
        client.invalidateQueries({ queryKey: referralKeys.all }),
      ]),
  });
}

/** GET /api/admin/referrals/report?weeks=N: the programme week by week. */
export function getReferralReport(weeks: number, signal?: AbortSignal): Promise<ReferralReportResponse> {
  return api.get<ReferralReportResponse>(`/api/admin/referrals/report${toQueryString({ weeks })}`, { signal });
}

export function useReferralReport(weeks = REPORT_WEEKS) {
  return useQuery(queryOptions({ queryKey: referralKeys.adminReport(weeks), queryFn: ({ signal }) => getReferralReport(weeks, signal) }));
}

/** GET /api/admin/referrals/report.csv: the same weeks as a file (the call needs the Authorization header). */
export async function fetchReferralReportCsv(weeks: number): Promise<{ csv: string; filename: string }> {
  const csv = await api.get<string>(`/api/admin/referrals/report.csv${toQueryString({ weeks })}`);
  return { csv: typeof csv === 'string' ? csv : '', filename: `olympus-referrals-${weeks}-weeks.csv` };
}

export function useDownloadReferralReport() {
  return useMutation({ mutationFn: fetchReferralReportCsv, onSuccess: saveCsv });
}

/** GET /api/admin/referrals/settings: the programme's settings and every change, newest first. */
export function getReferralSettings(signal?: AbortSignal): Promise<ReferralSettingsResponse> {
  return api.get<ReferralSettingsResponse>('/api/admin/referrals/settings', { signal });
}

export function useReferralSettings() {
  return useQuery(queryOptions({ queryKey: referralKeys.adminSettings(), queryFn: ({ signal }) => getReferralSettings(signal) }));
}

/** PUT /api/admin/referrals/settings: the whole settings, kept in the history. */
export const saveReferralSettings = (settings: ReferralSettings) =>
  api.put<ReferralSettingsResponse>('/api/admin/referrals/settings', settings);

export function useSaveReferralSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveReferralSettings,
    onSuccess: (data) => client.setQueryData(referralKeys.adminSettings(), data),
    onSettled: () => client.invalidateQueries({ queryKey: referralKeys.all }),
  });
}
