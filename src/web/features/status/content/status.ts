export interface StatusComponent {
  id: string;
  name: string;
  description: string;
}

/** The parts of Olympus the status page reports on, in display order. */
export const STATUS_COMPONENTS: readonly StatusComponent[] = [
  { id: 'api', name: 'API', description: 'Sign-in, accounts, credits and support tickets.' },
  { id: 'database', name: 'Database', description: 'Where balances, payments and tickets are stored.' },
  { id: 'payment-provider', name: 'Payment provider', description: 'NOWPayments, which processes crypto top-ups.' },
  { id: 'swap-provider', name: 'Swap provider', description: 'The exchange partner behind instant swaps.' },
];
