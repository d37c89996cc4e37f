import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOwner } from '#shared/schemas/admin';
import type { Exchange } from '#shared/schemas/exchange';
import type { Payment } from '#shared/schemas/payments';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { adminKeys } from './admin-keys';

export type MoneyKind = 'payments' | 'exchanges';
export type MoneyOwner = AdminOwner;
export type MoneyRow = (Payment | Exchange) & { owner: MoneyOwner; providerData: Record<string, unknown> | null };
export interface MoneyFilters {
  status: string;
  currency: string;
  user: string;
  from: string;
  to: string;
}
export const MONEY_PAGE_SIZE = 20;

/** GET /api/admin/payments or /api/admin/exchanges: one page (20) of the filtered list, for staff. */
export async function getMoneyList(
  kind: MoneyKind,
  filters: MoneyFilters,
  page: number,
  signal?: AbortSignal,
): Promise<{ rows: MoneyRow[]; total: number }> {
  const res = await api.get<Record<string, unknown> & { total: number }>(
    `/api/admin/${kind}${toQueryString({ ...filters, page, pageSize: MONEY_PAGE_SIZE })}`,
    { signal },
  );
  return { rows: res[kind] as MoneyRow[], total: res.total };
}

/** Typed filters ask once per key: the key holds them all, so only the newest answer is shown. */
export const moneyListQueryOptions = (kind: MoneyKind, filters: MoneyFilters, page: number) =>
  queryOptions({
    queryKey: adminKeys.moneyList(kind, { ...filters }, page),
    queryFn: ({ signal }) => getMoneyList(kind, filters, page, signal),
    placeholderData: keepPreviousData,
  });

export function useMoneyList(kind: MoneyKind, filters: MoneyFilters, page: number) {
  return useQuery(moneyListQueryOptions(kind, filters, page));
}
