import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderListResponse } from '#shared/schemas/catalogue';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

export const MY_ORDERS_PAGE_SIZE = 10;

/** GET /api/orders: my orders, newest first. */
export const fetchMyOrders = (page: number, signal?: AbortSignal) =>
  api.get<OrderListResponse>(`/api/orders?page=${page}&pageSize=${MY_ORDERS_PAGE_SIZE}`, { signal });

export const myOrdersQueryOptions = (page: number) =>
  queryOptions({
    queryKey: catalogueKeys.myOrders(page),
    queryFn: ({ signal }) => fetchMyOrders(page, signal),
    placeholderData: keepPreviousData,
    // Staff may fulfil or refund while the page is open: look again when the person comes back.
    refetchOnWindowFocus: 'always',
  });

export function useMyOrders(page: number) {
  return useQuery(myOrdersQueryOptions(page));
}
