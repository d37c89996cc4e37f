import { t } from '@lingui/core/macro';
import type { Ticket } from '#shared/schemas/tickets';

/** "2h 14m", "35m", "3d 4h": the largest two units, minutes at least. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? t`${days}d ${hours}h` : t`${days}d`;
  if (hours > 0) return mins > 0 ? t`${hours}h ${mins}m` : t`${hours}h`;
  return t`${mins}m`;
}

/**
 * The queue's first-response timer: time from opening to the first visible staff answer, or how long
 * the requester has been waiting for it. A closed ticket nobody answered shows nothing.
 */
export function firstResponseLabel(ticket: Pick<Ticket, 'createdAt' | 'firstResponseAt' | 'status'>, now: number): string | null {
  const opened = Date.parse(ticket.createdAt);
  if (ticket.firstResponseAt) {
    const duration = formatDuration(Date.parse(ticket.firstResponseAt) - opened);
    return t`first response in ${duration}`;
  }
  if (ticket.status === 'closed' || ticket.status === 'resolved') return null;
  const duration = formatDuration(now - opened);
  return t`waiting ${duration}`;
}
