import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOrderListResponse, OrderStatus } from '#shared/schemas/catalogue';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

export const STAFF_ORDERS_PAGE_SIZE = 20;

/** GET /api/admin/orders: every order, newest first, optionally of one status. */
export const staffOrdersQueryOptions = (status: OrderStatus | '', page: number) =>
  queryOptions({
    queryKey: catalogueKeys.staffOrders(status, page),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ page: String(page), pageSize: String(STAFF_ORDERS_PAGE_SIZE) });
      if (status) query.set('status', status);
      return api.get<AdminOrderListResponse>(`/api/admin/orders?${query.toString()}`, { signal });
    },
    placeholderData: keepPreviousData,
  });

export function useStaffOrders(status: OrderStatus | '', page: number) {
  return useQuery(staffOrdersQueryOptions(status, page));
}
