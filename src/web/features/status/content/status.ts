import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

export interface StatusComponent {
  id: string;
  name: MessageDescriptor;
  /** Translated where it renders (`i18n._`, decision 0326). */
  description: MessageDescriptor;
}

/** The parts of Olympus the status page reports on, in display order. */
export const STATUS_COMPONENTS: readonly StatusComponent[] = [
  { id: 'api', name: msg`API`, description: msg`Sign-in, accounts, credits and support tickets.` },
  { id: 'database', name: msg`Database`, description: msg`Where balances, payments and tickets are stored.` },
  { id: 'payment-provider', name: msg`Payment provider`, description: msg`NOWPayments, which processes crypto top-ups.` },
  { id: 'swap-provider', name: msg`Swap provider`, description: msg`The exchange partner behind instant swaps.` },
];
