import type { Ticket } from '#shared/schemas/tickets';

const LABELS: Record<Ticket['status'], string> = {
  open: 'Open',
  pending: 'Awaiting reply',
  resolved: 'Resolved',
  closed: 'Closed',
};

export function TicketStatusBadge({ status }: { status: Ticket['status'] }) {
  return <span className={`ticket-status ticket-status-${status}`}>{LABELS[status]}</span>;
}
