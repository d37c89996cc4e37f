import { t } from '@lingui/core/macro';
import { SLA_DUE_SOON_MS, type SlaClock, type TicketSla } from '#shared/schemas/support-sla';
import type { Ticket } from '#shared/schemas/tickets';
import { formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';

/**
 * The SLA targets of a ticket as the staff queue shows them (docs/decisions/0293): business time left
 * ("2 h 10 m left") while a target is owed, or how long ago it was breached ("Breached 1 h ago").
 */

/** "2 h 10 m", "45 m", "26 h": business time counts in hours and minutes (a business day is not 24 h). */
export function formatBusinessTime(ms: number): string {
  const minutes = Math.max(0, Math.ceil(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  const mins = minutes % 60;
  if (hours === 0) return t`${mins} m`;
  return mins > 0 ? t`${hours} h ${mins} m` : t`${hours} h`;
}

/** "1 h ago", "3 d 2 h ago", "just now": clock time since an instant. */
export function formatAgo(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return t`just now`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? t`${days} d ${hours} h ago` : t`${days} d ago`;
  if (hours > 0) return mins > 0 ? t`${hours} h ${mins} m ago` : t`${hours} h ago`;
  return t`${mins} m ago`;
}

export type SlaTone = 'ok' | 'soon' | 'breached' | 'met';
export interface SlaLine {
  kind: 'Response' | 'Resolution';
  text: string;
  tone: SlaTone;
  dueAt: string | null;
}

/** One clock as a line; null when there is nothing to show (no target, or done in the queue). */
export function slaLine(kind: SlaLine['kind'], clock: SlaClock | null, now: number, showDone: boolean): SlaLine | null {
  if (!clock) return null;
  if (clock.state === 'met') return showDone ? { kind, text: t`Met`, tone: 'met', dueAt: clock.dueAt } : null;
  if (clock.state === 'breached') {
    const ago = clock.dueAt ? formatAgo(now - Date.parse(clock.dueAt)) : null;
    return { kind, text: ago === null ? t`Breached` : t`Breached ${ago}`, tone: 'breached', dueAt: clock.dueAt };
  }
  if (!clock.dueAt) return { kind, text: t`No working time left in the calendar`, tone: 'soon', dueAt: null };
  const left = formatBusinessTime(clock.businessMsLeft);
  return {
    kind,
    text: t`${left} left`,
    tone: clock.businessMsLeft <= SLA_DUE_SOON_MS ? 'soon' : 'ok',
    dueAt: clock.dueAt,
  };
}

/**
 * The lines of a ticket: in the queue, first response until answered and resolution until resolved
 * (`showDone` false); in the ticket view also the met and late ones.
 */
export function slaLines(ticket: Pick<Ticket, 'sla' | 'firstResponseAt' | 'status'>, now: number, showDone = false): SlaLine[] {
  const sla: TicketSla | undefined = ticket.sla;
  if (!sla) return [];
  const done = ticket.status === 'resolved' || ticket.status === 'closed';
  const lines = [
    showDone || !ticket.firstResponseAt ? slaLine('Response', sla.firstResponse, now, showDone) : null,
    showDone || !done ? slaLine('Resolution', sla.resolution, now, showDone) : null,
  ];
  // In the queue a breach already answered is history: only what is still owed shows.
  return lines.filter((l): l is SlaLine => l !== null && (showDone || l.tone !== 'met'));
}

function dueLabel(dueAt: string): string {
  const when = formatLocaleDateTime(dueAt);
  return t`Due ${when}`;
}

function dueLowerLabel(dueAt: string): string {
  const when = formatLocaleDateTime(dueAt);
  return t`due ${when}`;
}

/** The badges, styled like the status badges; each reads as "Response target: 2 h 10 m left, due …". */
export function SlaBadges({
  ticket,
  now,
  showDone = false,
}: {
  ticket: Pick<Ticket, 'sla' | 'firstResponseAt' | 'status'>;
  now: number;
  showDone?: boolean;
}) {
  useLocale();
  const lines = slaLines(ticket, now, showDone);
  if (lines.length === 0) return null;
  return (
    <span className="sla-badges">
      {lines.map((l) => (
        <span key={l.kind} className={`sla-badge sla-${l.tone}`} title={l.dueAt ? dueLabel(l.dueAt) : undefined}>
          <span className="sla-kind">
            {l.kind === 'Response' ? t`Response` : t`Resolution`}
            <span className="visually-hidden"> {t`target:`}</span>
          </span>{' '}
          {l.text}
          {l.dueAt && <span className="visually-hidden">, {dueLowerLabel(l.dueAt)}</span>}
        </span>
      ))}
    </span>
  );
}
