import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Ticket } from '#shared/schemas/tickets';
import { useLocale } from '#web/features/language';

/**
 * A ticket's status in the words of the person reading it: whose turn it is, not the desk's jargon
 * (docs/decisions/0311-ticket-statuses-worded-for-the-reader.md). `open` waits on support, `pending`
 * on the requester.
 */
const LABELS: Record<'requester' | 'staff', Record<Ticket['status'], MessageDescriptor>> = {
  requester: { open: msg`Waiting for support`, pending: msg`Waiting for you`, resolved: msg`Resolved`, closed: msg`Closed` },
  staff: { open: msg`Open`, pending: msg`Waiting for customer`, resolved: msg`Resolved`, closed: msg`Closed` },
};

/** The status in the reader's words, for a badge or a choice in a list. */
export const ticketStatusLabel = (status: Ticket['status'], reader: 'requester' | 'staff') => i18n._(LABELS[reader][status]);

/** A priority as a person reads it. */
export const TICKET_PRIORITY_LABELS: Record<Ticket['priority'], MessageDescriptor> = {
  low: msg`Low`,
  normal: msg`Normal`,
  high: msg`High`,
  urgent: msg`Urgent`,
};

/** A priority in the page's language. */
export const ticketPriorityLabel = (priority: Ticket['priority']) => i18n._(TICKET_PRIORITY_LABELS[priority]);

export function TicketStatusBadge({ status, reader }: { status: Ticket['status']; reader: 'requester' | 'staff' }) {
  useLocale();
  return <span className={`ticket-status ticket-status-${status}`}>{ticketStatusLabel(status, reader)}</span>;
}
