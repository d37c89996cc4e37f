import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaffMember } from '#shared/schemas/tickets';
import { api } from '#web/lib/api-client';
import { ticketKeys } from './ticket-keys';

/** GET /api/staff/tickets/staff-members: who a ticket can be assigned to. */
export function getStaffMembers(signal?: AbortSignal): Promise<{ staff: StaffMember[] }> {
  return api.get<{ staff: StaffMember[] }>('/api/staff/tickets/staff-members', { signal });
}

export const staffMembersQueryOptions = () =>
  queryOptions({ queryKey: ticketKeys.staffMembers(), queryFn: ({ signal }) => getStaffMembers(signal), staleTime: 60_000 });

export function useStaffMembers() {
  return useQuery(staffMembersQueryOptions());
}
