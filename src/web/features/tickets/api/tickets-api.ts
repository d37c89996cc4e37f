import type { Ticket } from '#shared/schemas/tickets';

/** Guests use /api/tickets/guest (docs/product.md#roles), signed-in users /api/tickets. */
export function requesterBase(isGuest: boolean): string {
  return isGuest ? '/api/tickets/guest' : '/api/tickets';
}

export type TicketResponse = { ticket: Ticket };
