import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { TICKET_CATEGORIES } from '#shared/schemas/tickets';

type TicketCategory = (typeof TICKET_CATEGORIES)[number];

/** A ticket's category as its thread tags it: the code in English, words in the other languages. */
const CATEGORY_TAGS: Record<TicketCategory, MessageDescriptor> = {
  general: msg`general`,
  account: msg`account`,
  payments: msg`payments`,
  exchange: msg`exchange`,
  rewards: msg`rewards`,
  technical: msg`technical`,
};

/** A category in the page's language; one the web does not know is shown as it came. */
export function categoryTag(category: string): string {
  const label = Object.hasOwn(CATEGORY_TAGS, category) ? CATEGORY_TAGS[category as TicketCategory] : undefined;
  return label ? i18n._(label) : category;
}

/**
 * The events the server writes into a thread in English (src/server/modules/support/rules/auto-close.ts,
 * src/server/modules/support/tickets/staff-changes.ts), each matched and worded in the page's language.
 */
const TICKET_EVENTS: ReadonlyArray<readonly [RegExp, (value: number) => string]> = [
  [
    /^Closed automatically: resolved (\d+) days? ago without a reply\.$/,
    (days) =>
      plural(days, {
        one: 'Closed automatically: resolved # day ago without a reply.',
        other: 'Closed automatically: resolved # days ago without a reply.',
      }),
  ],
  [/^Ticket #(\d+) was merged into this ticket\.$/, (number) => t`Ticket #${number} was merged into this ticket.`],
  [/^Merged into #(\d+)\.$/, (number) => t`Merged into #${number}.`],
];

/** An event line of a ticket's thread in the page's language; one the web does not know is shown as it came. */
export function ticketEventText(body: string): string {
  if (!i18n.locale) return body;
  for (const [pattern, words] of TICKET_EVENTS) {
    const value = pattern.exec(body)?.[1];
    if (value !== undefined) return words(Number(value));
  }
  return body;
}

/** The event lines the web words (for the test: each server-written form must match one). */
export const TICKET_EVENT_PATTERNS: readonly RegExp[] = TICKET_EVENTS.map(([pattern]) => pattern);
