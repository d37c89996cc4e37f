import type { QueryClient } from '@tanstack/react-query';
import type { Ticket, TicketListResponse } from '#shared/schemas/tickets';
import { ticketKeys } from './ticket-keys';
import type { TicketResponse } from './tickets-api';

/**
 * The browser's list of my tickets is the query cache, nothing else (docs/decisions/0225): a ticket with
 * a known _id is merged into the existing one in place; a new one goes to the front.
 */
export function mergeTicket(tickets: readonly Ticket[], ticket: Ticket): Ticket[] {
  const index = tickets.findIndex((t) => t._id === ticket._id);
  if (index === -1) return [ticket, ...tickets];
  const next = tickets.slice();
  next[index] = { ...tickets[index], ...ticket };
  return next;
}

/** One ticket per _id, the first occurrence kept (a ticket can move between pages while polling). */
export function dedupeTickets(tickets: readonly Ticket[]): Ticket[] {
  const seen = new Set<string>();
  return tickets.filter((t) => (seen.has(t._id) ? false : (seen.add(t._id), true)));
}

/**
 * An answer about one of my tickets lands in the cache: it becomes the ticket's detail, and is merged into
 * the cached list pages that show it (a new ticket goes to the front of the first page).
 */
export function putMyTicket(client: QueryClient, isGuest: boolean, res: TicketResponse): void {
  client.setQueryData(ticketKeys.mineDetail(isGuest, res.ticket._id), res);
  for (const [key, list] of client.getQueriesData<TicketListResponse>({ queryKey: [...ticketKeys.mine(isGuest), 'list'] })) {
    if (!list) continue;
    const known = list.tickets.some((t) => t._id === res.ticket._id);
    const firstPage = key[key.length - 1] === 1;
    if (known || firstPage) client.setQueryData<TicketListResponse>(key, { ...list, tickets: mergeTicket(list.tickets, res.ticket) });
  }
}
