import type { CreateTicketBody, Ticket, TicketListResponse } from '../../../../shared/schemas/tickets';
import { api } from '../../../lib/api-client';
import { toQueryString } from '../../../lib/query-string';

/** Guests use /api/tickets/guest (spec section 6), signed-in users /api/tickets. */
export function requesterBase(isGuest: boolean): string {
  return isGuest ? '/api/tickets/guest' : '/api/tickets';
}

export const ticketsApi = {
  list: (isGuest: boolean, params: { status?: string; page?: number; pageSize?: number } = {}) =>
    api.get<TicketListResponse>(`${requesterBase(isGuest)}${toQueryString(params)}`),
  get: (isGuest: boolean, id: string) => api.get<{ ticket: Ticket }>(`${requesterBase(isGuest)}/${encodeURIComponent(id)}`),
  create: (isGuest: boolean, body: CreateTicketBody) => api.post<{ ticket: Ticket }>(requesterBase(isGuest), body),
  reply: (isGuest: boolean, id: string, message: string) =>
    api.post<{ ticket: Ticket }>(`${requesterBase(isGuest)}/${encodeURIComponent(id)}/messages`, { message }),
  setStatus: (isGuest: boolean, id: string, status: 'open' | 'closed') =>
    api.put<{ ticket: Ticket }>(`${requesterBase(isGuest)}/${encodeURIComponent(id)}`, { status }),
};

export const staffTicketsApi = {
  list: (params: { status?: string; priority?: string; search?: string; assigned?: string; page?: number; pageSize?: number }) =>
    api.get<TicketListResponse>(`/api/staff/tickets${toQueryString(params)}`),
  get: (id: string) => api.get<{ ticket: Ticket }>(`/api/staff/tickets/${encodeURIComponent(id)}`),
  reply: (id: string, message: string) => api.post<{ ticket: Ticket }>(`/api/staff/tickets/${encodeURIComponent(id)}/messages`, { message }),
  update: (id: string, change: { status?: string; priority?: string; assignToMe?: boolean }) =>
    api.put<{ ticket: Ticket }>(`/api/staff/tickets/${encodeURIComponent(id)}`, change),
};
