import type { Ticket } from '#shared/schemas/tickets';

/**
 * A ticket's status in the words of the person reading it: whose turn it is, not the desk's jargon
 * (docs/decisions/0311-ticket-statuses-worded-for-the-reader.md). `open` waits on support, `pending`
 * on the requester.
 */
const LABELS: Record<'requester' | 'staff', Record<Ticket['status'], string>> = {
  requester: { open: 'Waiting for support', pending: 'Waiting for you', resolved: 'Resolved', closed: 'Closed' },
  staff: { open: 'Open', pending: 'Waiting for customer', resolved: 'Resolved', closed: 'Closed' },
};

/** The status in the reader's words, for a badge or a choice in a list. */
export const ticketStatusLabel = (status: Ticket['status'], reader: 'requester' | 'staff') => LABELS[reader][status];

/** A priority as a person reads it. */
export const TICKET_PRIORITY_LABELS: Record<Ticket['priority'], string> = { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' };

export function TicketStatusBadge({ status, reader }: { status: Ticket['status']; reader: 'requester' | 'staff' }) {
  return <span className={`ticket-status ticket-status-${status}`}>{LABELS[reader][status]}</span>;
}
