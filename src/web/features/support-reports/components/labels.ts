import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { TICKET_PRIORITIES } from '#shared/schemas/tickets';

type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/** The priorities as the report's table names its rows: the desk's codes in English, words in the other languages. */
const PRIORITY_LABELS: Record<TicketPriority, MessageDescriptor> = {
  low: msg`low`,
  normal: msg`normal`,
  high: msg`high`,
  urgent: msg`urgent`,
};

/** A priority in the page's language; one the table does not know is shown as it came. */
export function priorityLabel(priority: string): string {
  const label = Object.hasOwn(PRIORITY_LABELS, priority) ? PRIORITY_LABELS[priority as TicketPriority] : undefined;
  return label ? i18n._(label) : priority;
}
