import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditListResponse } from '#shared/schemas/admin';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { adminKeys } from './admin-keys';

export type AuditResponse = AuditListResponse;

/** GET /api/admin/audit: the append-only audit log, searched, one page. */
export function getAudit(search: string, page: number, signal?: AbortSignal): Promise<AuditResponse> {
  return api.get<AuditResponse>(`/api/admin/audit${toQueryString({ search, page })}`, { signal });
}

export const auditQueryOptions = (search: string, page: number) =>
  queryOptions({ queryKey: adminKeys.audit(search, page), queryFn: ({ signal }) => getAudit(search, page, signal) });

export function useAudit(search: string, page: number) {
  return useQuery(auditQueryOptions(search, page));
}
