import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminMailMessage } from '#shared/schemas/mail';
import { api } from '#web/lib/api-client';

export interface OutgoingMailPage {
  messages: AdminMailMessage[];
  page: number;
  pageSize: number;
  total: number;
}

/** GET /api/admin/mail: the outbox, newest first, optionally one status (failed ones carry their last SMTP answer). */
export function useOutgoingMail(filter: { status: string; page: number }) {
  return useQuery({
    queryKey: ['admin', 'mail', filter],
    queryFn: () => {
      const query = new URLSearchParams({ page: String(filter.page), pageSize: '20' });
      if (filter.status) query.set('status', filter.status);
      return api.get<OutgoingMailPage>(`/api/admin/mail?${query}`);
    },
    placeholderData: keepPreviousData,
  });
}
