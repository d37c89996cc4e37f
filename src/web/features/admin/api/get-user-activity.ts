import { t } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Exchange } from '#shared/schemas/exchange';
import type { Payment } from '#shared/schemas/payments';
import type { Ticket } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { adminKeys } from './admin-keys';
import { formatLocaleCreditAmount, formatLocaleCrypto } from '#web/lib/format';

export interface ActivityRow {
  _id: string;
  status: string;
  createdAt: string;
  label: string;
}
export interface UserActivity {
  payments: ActivityRow[];
  exchanges: ActivityRow[];
  tickets: ActivityRow[];
}

const NONE: UserActivity = { payments: [], exchanges: [], tickets: [] };

/** A payment of the activity list: "25.00 USD in BTC", in the page's language. */
const paymentLabel = (amount: string, currency: string) => t`${amount} USD in ${currency}`;

/**
 * An account's latest ten payments, exchanges and tickets, from the three staff lists. Never fails:
 * the full lists live in their own tabs, so here a failure reads as no activity.
 */
export async function getUserActivity(userId: string, signal?: AbortSignal): Promise<UserActivity> {
  const q = toQueryString({ userId, pageSize: 10 });
  try {
    const [p, e, t] = await Promise.all([
      api.get<{ payments: Payment[] }>(`/api/admin/payments${q}`, { signal }),
      api.get<{ exchanges: Exchange[] }>(`/api/admin/exchanges${q}`, { signal }),
      api.get<{ tickets: Ticket[] }>(`/api/staff/tickets${q}`, { signal }),
    ]);
    return {
      payments: p.payments.map((x) => ({
        _id: x._id,
        status: x.status,
        createdAt: x.createdAt,
        label: paymentLabel(formatLocaleCreditAmount(x.priceAmount), x.payCurrency.toUpperCase()),
      })),
      exchanges: e.exchanges.map((x) => ({
        _id: x._id,
        status: x.status,
        createdAt: x.createdAt,
        label: `${formatLocaleCrypto(String(x.amount))} ${x.from.toUpperCase()} → ${x.to.toUpperCase()}`,
      })),
      tickets: t.tickets.map((x) => ({ _id: x._id, status: x.status, createdAt: x.createdAt, label: `#${x.number} ${x.subject}` })),
    };
  } catch (err) {
    if (signal?.aborted) throw err;
    return NONE;
  }
}

export const userActivityQueryOptions = (userId: string) =>
  queryOptions({ queryKey: adminKeys.userActivity(userId), queryFn: ({ signal }) => getUserActivity(userId, signal) });

export function useUserActivity(userId: string) {
  return useQuery(userActivityQueryOptions(userId));
}
