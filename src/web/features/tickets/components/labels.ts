import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
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
