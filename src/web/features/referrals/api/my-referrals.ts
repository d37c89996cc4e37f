import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReferralListResponse, ReferralSummary } from '#shared/schemas/referrals';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { referralKeys } from './referral-keys';

/** How many people a page of "My referrals" lists. */
export const MY_REFERRALS_PAGE_SIZE = 20;

/** GET /api/referrals/summary: my code, my link's path, the figures and the programme's settings. */
export function getReferralSummary(signal?: AbortSignal): Promise<ReferralSummary> {
  return api.get<ReferralSummary>('/api/referrals/summary', { signal });
}

export const referralSummaryQueryOptions = () =>
  queryOptions({ queryKey: referralKeys.summary(), queryFn: ({ signal }) => getReferralSummary(signal) });

export function useReferralSummary() {
  return useQuery(referralSummaryQueryOptions());
}

/** GET /api/referrals: one page of the people who joined with my link, newest first. */
export function getMyReferrals(page: number, signal?: AbortSignal): Promise<ReferralListResponse> {
  return api.get<ReferralListResponse>(`/api/referrals${toQueryString({ page, pageSize: MY_REFERRALS_PAGE_SIZE })}`, { signal });
}

export const myReferralsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: referralKeys.mine(page),
    queryFn: ({ signal }) => getMyReferrals(page, signal),
    placeholderData: keepPreviousData,
  });

export function useMyReferrals(page: number) {
  return useQuery(myReferralsQueryOptions(page));
}
